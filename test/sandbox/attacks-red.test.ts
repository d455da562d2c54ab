import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RED_ATTACKS, RED_LOOKALIKES } from './attacks-red.js';
import { fillCommand, guardEngine, hostLine, runBash } from './harness.js';
import { makeRedRange, redReached, redSnapshot, type RedRange } from './red-range.js';
import { slack } from '../support/slack.js';

/**
 * The second red team (attacks-red.ts): each attack reaches something when run plainly,
 * and through the guard is refused, or runs in the sandbox and reaches nothing.
 */
let r: RedRange;
beforeEach(async () => {
  r = await makeRedRange();
});
afterEach(async () => {
  await r.cleanup();
});

const fill = (command: string) => fillCommand(r, command, { uport: String(r.uport), abstract: r.abstract });

async function run(line: string) {
  const before = redSnapshot(r);
  const result = await runBash(r, line);
  await r.settleExtra();
  return { found: redReached(r, before, result), result };
}

const cases = RED_ATTACKS.map((a) => [a.cls, a.command] as const);

describe('each attack works without the sandbox (so the suite cannot pass vacuously)', () => {
  it.each(cases)('%s: %s', async (_cls, command) => {
    const { found, result } = await run(fill(command));
    expect(found, `${result.stdout}\n${result.stderr}`).not.toEqual([]);
  });
});

describe('with the shell guard, each attack is refused, or runs in the sandbox and reaches nothing outside', () => {
  it.each(cases)(
    '%s: %s',
    async (_cls, command) => {
      const { line, reason } = await hostLine(guardEngine(r), r, fill(command));
      if (line === undefined) {
        expect(reason).toBeTruthy();
        return;
      }
      const { found, result } = await run(line);
      expect(found, `${result.stdout}\n${result.stderr}`).toEqual([]);
    },
    slack(300_000),
  );
});

describe('harmless look-alikes run in the sandbox as they run without it', () => {
  it.each(RED_LOOKALIKES)('%s', async (command) => {
    const plain = await runBash(r, command);
    const plainRoot = r.root;
    await r.cleanup();
    r = await makeRedRange();
    const { line, reason } = await hostLine(guardEngine(r), r, command);
    expect(line, `the guard refused a look-alike: ${reason}`).toBeDefined();
    const boxed = await runBash(r, line!);
    expect({ status: boxed.status, stdout: boxed.stdout.replaceAll(r.root, '<root>') }).toEqual({
      status: plain.status,
      stdout: plain.stdout.replaceAll(plainRoot, '<root>'),
    });
  });
});

describe('the sweep outside the sandbox', () => {
  // After the command, a protected file it created is moved aside to `<name>.hookwise-blocked-<pid of the host's
  // shell>`. mv moves into a folder it is given, so a link by that name to a folder outside took the file out of the
  // workspace (an .npmrc into another project, or into the home folder). The command cannot see the pid, but it can
  // make one link per possible pid (pid_max of them); here the host's shell tells it, to keep the test short.
  const attack =
    `python3 -c "import os; n = '.np' + 'mrc'; o = os.path.join(os.path.dirname(os.getcwd()), 'out' + 'side'); ` +
    `open(n, 'w').write('script-shell=/tmp/pwn'); ` +
    `os.rename(n, os.path.join(o, n)) if os.path.isdir(o) else os.symlink(o, n + '.hookwise-blocked-' + open('.hostpid').read().strip())"`;

  it('without the sandbox, the attack puts a file outside the workspace', async () => {
    const { found, result } = await run(`echo $$ > .hostpid; ${attack}`);
    expect(found, `${result.stdout}\n${result.stderr}`).not.toEqual([]);
  });

  it('through the guard, the file is moved aside to a name nothing held, and nothing outside changes', async () => {
    const { line } = await hostLine(guardEngine(r), r, attack);
    expect(line, 'the guard refused the attack: it does not reach the sweep').toBeDefined();
    // The host's shell is the one that runs the line (exec keeps its pid).
    const { found, result } = await run(`echo $$ > .hostpid; exec bash -c ${shellQuote(line!)}`);
    expect(found, `${result.stdout}\n${result.stderr}`).toEqual([]);
    expect(result.stderr).toMatch(/moved .*\.npmrc aside to .*\.npmrc\.hookwise-blocked-\d+-/);
  });
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
