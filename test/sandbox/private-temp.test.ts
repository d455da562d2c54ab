import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEngine } from '../../src/core/engine.js';
import { privateTempRoot, sessionKey } from '../../src/sandbox/private-temp.js';
import { guardEngine, hostLine, makeRange, runBash, type Range } from './harness.js';

let r: Range;
let engine: HookEngine;
let outsideDir: string | undefined;
beforeEach(async () => {
  r = await makeRange();
  engine = guardEngine(r);
});
afterEach(async () => {
  if (outsideDir) fs.rmSync(outsideDir, { recursive: true, force: true });
  outsideDir = undefined;
  await r.cleanup();
});

/** Run a command as a host would, through the guard, in one session. */
async function run(command: string, session = 'session-a') {
  const { line, reason } = await hostLine(engine, r, command, `${r.root}:${session}`);
  if (line === undefined) return { refused: reason ?? '', stdout: '', stderr: '', status: null };
  return { refused: undefined, ...(await runBash(r, line)) };
}

function sessionFolder(session: string): string {
  return path.join(privateTempRoot(r.home), sessionKey(`${r.root}:${session}`, r.ws));
}

const unique = () => `hw-${randomBytes(6).toString('hex')}`;

describe("a session's /tmp is its own, and kept between its commands", () => {
  it('a file written to /tmp by one command is there for the next, and not in the real /tmp', async () => {
    const name = unique();
    const write = await run(`echo hi > /tmp/${name}.txt && mkdir -p /var/tmp/${name} && echo v > /var/tmp/${name}/f`);
    expect(write.refused).toBeUndefined();
    expect(write.status).toBe(0);
    const read = await run(`cat /tmp/${name}.txt /var/tmp/${name}/f`);
    expect(read.stdout).toBe('hi\nv\n');
    expect(fs.existsSync(`/tmp/${name}.txt`)).toBe(false);
    expect(fs.existsSync(path.join(sessionFolder('session-a'), 'tmp', `${name}.txt`))).toBe(true);
  });

  it("another session does not see it, and the session's end removes it", async () => {
    const name = unique();
    await run(`echo mine > /tmp/${name}.txt`);
    const other = await run(`cat /tmp/${name}.txt`, 'session-b');
    expect(other.status).not.toBe(0);
    expect(other.stdout).toBe('');
    const folder = sessionFolder('session-a');
    expect(fs.existsSync(folder)).toBe(true);
    await engine.fire('SessionEnd', { session_id: `${r.root}:session-a`, cwd: r.ws }, { env: r.env });
    expect(fs.existsSync(folder)).toBe(false);
    const after = await run(`cat /tmp/${name}.txt`);
    expect(after.status).not.toBe(0);
  });
});

describe('a real path outside that the sandbox hides is not shown a success that did not happen', () => {
  it("rm -rf of a folder in the real /tmp runs on the session's copy, and its output says the real one was not touched", async () => {
    outsideDir = path.join('/tmp', unique());
    fs.mkdirSync(path.join(outsideDir, 'build'), { recursive: true });
    fs.writeFileSync(path.join(outsideDir, 'build', 'keep.txt'), 'outside\n');
    // Control: the command does delete such a folder when run as the host runs it.
    const control = path.join('/tmp', unique());
    fs.mkdirSync(control);
    expect((await runBash(r, `rm -rf ${control}`)).status).toBe(0);
    expect(fs.existsSync(control)).toBe(false);

    const removed = await run(`rm -rf ${outsideDir} && echo done`);
    expect(removed.refused).toBeUndefined();
    expect(removed.stdout).toBe('done\n');
    expect(removed.stderr).toContain(`hookwise sandbox: \`rm -rf\` targets ${outsideDir}, which exists outside the sandbox`);
    expect(removed.stderr).toMatch(/the real one is untouched.*allowWrite/);
    const written = await run(`echo x > ${outsideDir}/keep2.txt`);
    expect(written.stderr).toMatch(/keep2\.txt|exists outside the sandbox/);
    expect(fs.readFileSync(path.join(outsideDir, 'build', 'keep.txt'), 'utf8')).toBe('outside\n');
    // Once the session has its own copy, the command acts on it and nothing more is said.
    const own = await run(`mkdir -p ${outsideDir} && echo mine > ${outsideDir}/mine.txt && cat ${outsideDir}/mine.txt`);
    expect(own.stdout).toBe('mine\n');
    const again = await run(`rm -rf ${outsideDir}`);
    expect(again.stderr).toBe('');
  });

  it("with an allowlist network, a session's /tmp is still its own to write (not refused as unprovable)", async () => {
    const name = unique();
    const judge = guardEngine(r, { sandbox: { network: 'registries' } });
    const outcome = await judge.fire(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: `echo hi > /tmp/${name}.txt && rm -rf /tmp/${name}-d` }, cwd: r.ws, session_id: 'n' },
      { env: r.env },
    );
    expect(outcome.blocked, outcome.reason ?? '').toBe(false);
    const upload = await judge.fire(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'bash -c "$X"' }, cwd: r.ws, session_id: 'n' },
      { env: r.env },
    );
    expect(upload.blocked).toBe(true);
  });
});

describe('what a command leaves in its /tmp reaches nothing outside', () => {
  it('a link left where the next command mounts the workspace is removed, and the workspace is mounted where it belongs', async () => {
    // The range's folder is in /tmp: the sandbox mounts the workspace at the same path inside the session's /tmp.
    const top = path.join('/tmp', path.relative('/tmp', r.root).split(path.sep)[0]!);
    // The paths spelled backwards: the parser would refuse them spelled out (the move takes the workspace's folder).
    const back = (p: string) => [...p].reverse().join('');
    const plant = await run(
      `python3 -c "import os; t='${back(top)}'[::-1]; os.rename(t, t + '-moved'); os.symlink('${back(r.outside)}'[::-1], t)"`,
    );
    expect(plant.refused).toBeUndefined();
    expect(plant.status, plant.stderr).toBe(0);
    const next = await run('echo written > from-next.txt && cat from-next.txt');
    expect(next.stdout).toBe('written\n');
    expect(fs.readFileSync(path.join(r.ws, 'from-next.txt'), 'utf8')).toBe('written\n');
    expect(fs.readdirSync(r.outside).sort()).toEqual(['secret.txt', 'sentinel.txt']);
  });

  it("the folder that holds every session's /tmp is masked where the sandbox shows it: no other session's files", async () => {
    const state = path.join(r.home, '.local', 'state', 'hookwise');
    const before = process.env.HOOKWISE_STATE_DIR;
    process.env.HOOKWISE_STATE_DIR = state;
    try {
      engine = guardEngine(r);
      await run('echo secret-of-b > /tmp/b.txt', 'session-b');
      const root = privateTempRoot(r.home);
      expect(fs.readdirSync(root).length).toBeGreaterThan(0); // control: session b's folder is there outside
      // Inside, the folder holds only this workspace's own caches (shown again in the mask).
      const look = await run(
        `python3 -c "import os; print(sorted(os.listdir('${path.dirname(root)}'))); print(open('${path.join(sessionFolder('session-b'), 'tmp', 'b.txt')}').read())"`,
      );
      expect(look.refused).toBeUndefined();
      expect(look.stdout).toBe("['cache']\n");
      expect(look.stderr).toMatch(/No such file or directory/);
    } finally {
      if (before === undefined) delete process.env.HOOKWISE_STATE_DIR;
      else process.env.HOOKWISE_STATE_DIR = before;
    }
  });
});

describe('after a sandboxed command, one line says what the sandbox held back and how a person allows it', () => {
  /** Run through the guard, then fire PostToolUse with what the host would report; the line the model gets. */
  async function afterCommand(command: string): Promise<{ status: number | null; line: string | undefined }> {
    const { line } = await hostLine(engine, r, command, `${r.root}:session-a`);
    expect(line, `the guard refused ${command}`).toBeDefined();
    const res = await runBash(r, line!);
    const post = await engine.fire(
      'PostToolUse',
      {
        tool_name: 'Bash',
        tool_input: { command: line },
        tool_response: { stdout: res.stdout, stderr: res.stderr, interrupted: false },
        cwd: r.ws,
        session_id: `${r.root}:session-a`,
      },
      { env: r.env },
    );
    return { status: res.status, line: post.additionalContext ?? undefined };
  }

  it('a write the kernel refused (EROFS) names the path and allowWrite', async () => {
    const home = [...r.home].reverse().join('');
    const { status, line } = await afterCommand(`python3 -c "import os; open(os.path.join('${home}'[::-1], 'made.txt'), 'w')"`);
    expect(status).not.toBe(0);
    expect(line).toMatch(/kept .*made\.txt read-only: outside the folders a command may write; .*allowWrite: \['.*made\.txt'\]/);
    expect(fs.existsSync(path.join(r.home, 'made.txt'))).toBe(false);
  });

  it('a protected file says it is protected', async () => {
    const { line } = await afterCommand(`python3 -c "open('.git/' + 'config', 'a').write('x')"`);
    expect(line).toMatch(/a protected path .*\.git\/config/);
  });

  it('a name that does not resolve names the host and the setting that allows it', async () => {
    const { status, line } = await afterCommand('curl -sS --max-time 5 http://example.invalid-hw/');
    expect(status).not.toBe(0);
    expect(line).toMatch(/no network \(sandbox\.network is 'off'\).*example\.invalid-hw.*network: 'registries'/);
  });

  it('a file that exists outside but is hidden says so', async () => {
    const { line } = await afterCommand(`python3 -c "print(open('${r.outside}' + '/sentinel.txt').read())"`);
    expect(line).toMatch(/sentinel\.txt exists outside the sandbox, but inside it \/tmp is this session's own folder.*allowRead/);
  });

  it('a file in a secret folder the sandbox masks says it exists and a person reads it outside, without its contents', async () => {
    // Spelled backwards: the parser refuses the path spelled out (a secret), before the sandbox is reached.
    const key = [...path.join(r.home, '.ssh', 'id_rsa')].reverse().join('');
    const { line } = await afterCommand(`python3 -c "print(open('${key}'[::-1]).read())"`);
    expect(line).toBe(
      `hookwise: ${path.join(r.home, '.ssh', 'id_rsa')} exists, but it is in ${path.join(r.home, '.ssh')}, a secret folder the OS sandbox shows empty; a person reads it outside the agent.`,
    );
  });

  it("git's rename over a protected .git/config (EBUSY) says the file is protected", async () => {
    fs.mkdirSync(path.join(r.ws, '.git', 'objects'), { recursive: true });
    fs.mkdirSync(path.join(r.ws, '.git', 'refs', 'heads'), { recursive: true });
    fs.writeFileSync(path.join(r.ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const { line } = await afterCommand('git config --local user.name someone');
    expect(line).toMatch(/the OS sandbox kept \.git\/config read-only: a protected path .*\.git\/config/);
  });

  it('a command that failed on its own gets no line', async () => {
    const { status, line } = await afterCommand('ls no-such-file-here');
    expect(status).not.toBe(0);
    expect(line).toBeUndefined();
  });
});

describe("tool caches are the workspace's own, writable, and used by nothing outside", () => {
  it('npm writes its cache; the real ~/.npm is not made or changed; a second session of the workspace finds it', async () => {
    const first = await run('npm cache verify >/dev/null && echo "$npm_config_cache" && ls "$npm_config_cache"');
    expect(first.refused).toBeUndefined();
    expect(first.status, first.stderr).toBe(0);
    const [cache, ...entries] = first.stdout.trim().split('\n');
    expect(cache).toMatch(/\/sandbox\/cache\/[0-9a-f]{32}\/npm$/);
    expect(entries.length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(r.home, '.npm'))).toBe(false);
    const second = await run('ls "$npm_config_cache" >/dev/null && echo "$npm_config_cache"', 'session-b');
    expect(second.stdout.trim()).toBe(cache);
  });

  it("~/.npmrc is shown without its credentials: npm keeps the user's settings, and no token is readable", async () => {
    const token = ['npm', 'Q7wErT9yUiOp3AsDfGhJkL2zXcVbNm0123456'].join('_');
    const real = `fund=false\nregistry=http://127.0.0.1:9/\n//registry.npmjs.org/:_authToken=${token}\n_auth=${token}\nemail=me@example.com\n`;
    fs.writeFileSync(path.join(r.home, '.npmrc'), real);
    const seen = await run(
      "npm config get registry && npm config get fund && python3 -c \"import os; print(open(os.path.expanduser('~/') + '.npmrc').read())\"",
    );
    expect(seen.refused).toBeUndefined();
    expect(seen.status, seen.stderr).toBe(0);
    expect(seen.stdout).toBe('http://127.0.0.1:9/\nfalse\nfund=false\nregistry=http://127.0.0.1:9/\n\n');
    expect(seen.stdout + seen.stderr).not.toContain(token);
    // The real file is as it was; a command's change to the copy is gone by the next command.
    await run('npm config set fund true');
    expect(fs.readFileSync(path.join(r.home, '.npmrc'), 'utf8')).toBe(real);
    expect((await run('npm config get fund')).stdout).toBe('false\n');
  });

  it("cargo's registry is shown writable over the real one, which is left as it was", async () => {
    fs.mkdirSync(path.join(r.home, '.cargo'), { recursive: true });
    const write = await run(
      "python3 -c \"import os; open(os.path.expanduser('~/.cargo/registry/planted.rs'), 'w').write('x')\" && ls ~/.cargo/registry",
    );
    expect(write.refused).toBeUndefined();
    expect(write.stdout).toBe('planted.rs\n');
    expect(fs.readdirSync(path.join(r.home, '.cargo', 'registry'))).toEqual([]);
  });
});
