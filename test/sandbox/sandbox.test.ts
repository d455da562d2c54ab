import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { deny, modify, skip } from '../../src/core/results.js';
import { shellGuard } from '../../src/guards/index.js';
import { detectSandbox, sandboxExec } from '../../src/sandbox/index.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { guardEngine, hostLine, makeRange, runBash, type Range } from './harness.js';
import { unsealed } from '../support/sandbox-line.js';
import { slack } from '../support/slack.js';

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

/** Everyday commands: each prints the same and exits the same in the sandbox as without it. */
const EVERYDAY = [
  'ls src',
  'cat src/a.txt',
  'echo hi > out.txt && cat out.txt',
  'mkdir -p build/x && touch build/x/y && ls build/x',
  'rm -rf build; mkdir build; rm -r build && echo gone',
  'grep -rn hello src',
  'find . -name "*.txt" -path "./src/*"',
  'wc -l src/a.txt',
  'sed -i s/hello/bye/ src/a.txt && cat src/a.txt',
  'cp src/a.txt src/b.txt && mv src/b.txt src/c.txt && ls src',
  'printf "%s\\n" a b c | sort -r | head -2',
  'tar cf - src | tar tf -',
  'python3 -c "print(sum(range(10)))"',
  "node -e \"console.log(process.cwd() === require('path').resolve('.'))\"",
  "node -e \"require('fs').writeFileSync('gen.json', JSON.stringify({ok:true})); console.log(require('fs').readFileSync('gen.json','utf8'))\"",
  'mkdir repo && cd repo && git init -q . && echo x > f && git add f && git -c user.email=a@b -c user.name=a commit -qm init && git log --oneline | wc -l',
  'echo $HOME',
  'cd src && pwd',
  'test -f README.md && echo yes',
  'exit 3',
  'false || echo recovered',
  'x=1; y=$((x+41)); echo $y',
  'for f in src/*; do basename $f; done',
  'date +%Y >/dev/null && echo dated',
  'cat README.md | tr a-z A-Z',
  'echo body | gzip -c | gunzip -c',
  'awk \'{ print NR": "$0 }\' src/a.txt',
  'sleep 0.1 && echo slept',
  'ln -s src/a.txt link.txt && cat link.txt',
  'chmod +x src/a.txt && test -x src/a.txt && echo exec',
];

describe('everyday commands run in the sandbox as they run without it', () => {
  it.each(EVERYDAY)('%s', async (command) => {
    const plain = await runBash(r, command);
    const plainRoot = r.root;
    await r.cleanup();
    r = await makeRange();
    const { line } = await hostLine(guardEngine(r), r, command);
    expect(line, 'the guard refused an everyday command').toBeDefined();
    const boxed = await runBash(r, line!);
    expect({ status: boxed.status, stdout: boxed.stdout.replaceAll(r.root, '<root>') }).toEqual({
      status: plain.status,
      stdout: plain.stdout.replaceAll(plainRoot, '<root>'),
    });
  });
});

describe("the host's shell keeps working", () => {
  it('a cd in an allowed command takes effect for what the host runs after it', async () => {
    const { line } = await hostLine(guardEngine(r), r, 'cd src');
    const result = await runBash(r, `${line}; pwd -P`);
    expect(result.stdout.trim()).toBe(path.join(r.ws, 'src'));
  });

  it("the command's exit status is the line's", async () => {
    const { line } = await hostLine(guardEngine(r), r, 'cd src; (exit 7)');
    expect((await runBash(r, line!)).status).toBe(7);
  });

  it('what the sandbox refuses shows in the output', async () => {
    const { line } = await hostLine(guardEngine(r), r, `python3 -c "open('.mcp.json','w').write('{}')"`);
    const result = await runBash(r, line!);
    expect(result.stderr).toMatch(/hookwise sandbox: moved .*\.mcp\.json aside/);
    expect(fs.existsSync(path.join(r.ws, '.mcp.json'))).toBe(false);
  });
});

describe('the environment inside', () => {
  it('has no variable whose name looks secret, whatever its case, except those passed on purpose', async () => {
    Object.assign(r.env, { my_api_key: 'v1', Session_Cookie: 'v2', DEPLOY_TOKEN: 'v3', BUILD_MODE: 'v4' });
    const engine = guardEngine(r, { sandbox: { passEnv: ['DEPLOY_TOKEN'] } });
    const { line } = await hostLine(engine, r, 'env | sort');
    const result = await runBash(r, line!);
    const names = result.stdout.split('\n').map((l) => l.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['DEPLOY_TOKEN', 'BUILD_MODE', 'HOME']));
    expect(names.filter((n) => /key|cookie|token|setting/i.test(n!))).toEqual(['DEPLOY_TOKEN']);
  });

  it('runs nothing when its bash cannot list the variables to clear', async () => {
    // BASH_ENV is read by the sandbox's bash before the scrub: here it takes compgen away.
    fs.writeFileSync(path.join(r.ws, 'no-compgen.sh'), 'enable -n compgen\n');
    const { line } = await hostLine(guardEngine(r), r, 'echo ran > ran.txt');
    const result = await runBash(r, `BASH_ENV=${path.join(r.ws, 'no-compgen.sh')}; export BASH_ENV; ${line}`);
    expect(result.status).toBe(126);
    expect(result.stderr).toMatch(/cannot list its variables/);
    expect(fs.existsSync(path.join(r.ws, 'ran.txt'))).toBe(false);
  });
});

describe('what the sandbox hides follows the disk between calls', () => {
  it('a secret or protected file made after an earlier call is hidden or read-only in the next one', async () => {
    const engine = guardEngine(r);
    await hostLine(engine, r, 'ls');
    fs.mkdirSync(path.join(r.ws, 'deep', 'er'), { recursive: true });
    fs.writeFileSync(path.join(r.ws, 'deep', 'er', '.env.local'), 'LATE=sk-late-secret-value-000111');
    fs.mkdirSync(path.join(r.ws, 'deep', '.vscode'));
    const { line } = await hostLine(engine, r, 'f=.env; cat "deep/er/$f.local"; d=.vscode; echo "{}" > "deep/$d/tasks.json"');
    expect(line, 'the parser alone would have refused: the test would prove nothing').toBeDefined();
    const result = await runBash(r, line!);
    expect(result.stdout).not.toContain('sk-late');
    expect(fs.existsSync(path.join(r.ws, 'deep', '.vscode', 'tasks.json'))).toBe(false);
  });
});

describe("agents' hook folders below the root", () => {
  it('.github/hooks (Copilot runs hookwise from it) is read-only as a whole, and one a command creates is moved aside', async () => {
    const hooks = path.join(r.ws, '.github', 'hooks');
    const write = 'd=.github; mkdir -p "$d/hooks"; echo "{}" > "$d/hooks/evil.json"';
    // Without the sandbox the line does write there: the test below cannot pass vacuously.
    await runBash(r, write);
    expect(fs.existsSync(path.join(hooks, 'evil.json'))).toBe(true);
    fs.rmSync(path.join(r.ws, '.github'), { recursive: true });

    const engine = guardEngine(r);
    // A folder that does not exist yet: made by the command, moved aside after it.
    const created = (await hostLine(engine, r, write)).line;
    expect(created, 'the parser alone would have refused: the test would prove nothing').toBeDefined();
    await runBash(r, created!);
    expect(fs.existsSync(path.join(hooks, 'evil.json'))).toBe(false);

    // A folder that exists: read-only, no new file in it.
    fs.rmSync(path.join(r.ws, '.github'), { recursive: true, force: true });
    fs.mkdirSync(hooks, { recursive: true });
    fs.writeFileSync(path.join(hooks, 'hookwise.json'), '{"hooks":{}}');
    const existing = (await hostLine(engine, r, write)).line;
    expect(existing).toBeDefined();
    await runBash(r, existing!);
    expect(fs.readdirSync(hooks)).toEqual(['hookwise.json']);
  });
});

describe('the wrap is the last word', () => {
  it('user hooks see the command as the model wrote it; their rewrite is what runs, sandboxed', async () => {
    const seen: string[] = [];
    const engine = guardEngine(r).register({
      name: 'quiet',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: '^echo hi$' },
      handler: (input) => {
        seen.push(String(input.tool_input?.command));
        return modify({ command: 'echo rewritten > by-hook.txt' });
      },
    });
    const { line } = await hostLine(engine, r, 'echo hi');
    expect(seen).toEqual(['echo hi']);
    expect(unsealed(line)).toContain('/bwrap');
    await runBash(r, line!);
    expect(fs.readFileSync(path.join(r.ws, 'by-hook.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('a skip from a hook that runs first does not skip the sandbox', async () => {
    const engine = new HookEngine()
      .register({ name: 'first', events: 'PreToolUse', priority: 5000, handler: () => skip() })
      .register(shellGuard({ workspace: r.ws, home: r.home }));
    const outcome = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: r.ws });
    expect(unsealed((outcome.updatedInput as { command: string }).command)).toContain('/bwrap');
    expect(outcome.hooks.find((h) => h.last)).toMatchObject({ name: 'guard:shell', sandboxed: true });
  });

  it('a refused call is not wrapped, and the record says which sandbox ran an allowed one', async () => {
    const engine = guardEngine(r).register({ name: 'no', events: 'PreToolUse', matcher: { command: 'nope' }, handler: () => deny('no') });
    const refused = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo nope' }, cwd: r.ws });
    expect(refused.updatedInput).toBeNull();
    expect(refused.hooks.some((h) => h.last)).toBe(false);
    const allowed = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo yes' }, cwd: r.ws });
    expect(allowed.hooks.find((h) => h.last)?.sandboxDigest).toMatch(/^[0-9a-f]{16}$/);
  });

  it("with sandbox: 'off' the command runs as the host runs it, and every record says so", async () => {
    const engine = guardEngine(r, { sandbox: 'off' });
    const outcome = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: r.ws });
    expect(outcome.updatedInput).toBeNull();
    expect(outcome.hooks[0]).toMatchObject({ name: 'guard:shell', sandbox: 'off' });
  });

  it('refuses a bad sandbox option when the guard is made, naming the field', () => {
    expect(() => shellGuard({ sandbox: { network: 'maybe' as 'on' } })).toThrow(
      /sandbox\.network must be "off", "on", "registries" or \{ allow/,
    );
    expect(() => shellGuard({ sandbox: { nets: 'on' } as never })).toThrow(/sandbox\.nets is not an option/);
  });
});

describe('without a sandbox program, nothing runs', () => {
  it('an unsupported system says what to do', () => {
    const found = detectSandbox('aix');
    expect(found.ok).toBe(false);
    expect(!found.ok && found.why).toMatch(/sandbox: "off"/);
  });
});

/**
 * A process that answers a hook tries bubblewrap once; a success is remembered for the
 * boot (src/sandbox/detect.ts), so the next process spawns nothing to know it. Run in
 * fresh processes (the verdict is also kept per process), counting spawnSync calls.
 */
describe.runIf(process.platform === 'linux' && detectSandbox().ok)('bubblewrap tried once a boot', () => {
  const detectIn = (stateDir: string) => {
    const script = `
      import cp from 'node:child_process';
      import { syncBuiltinESMExports } from 'node:module';
      let spawned = 0;
      const real = cp.spawnSync;
      cp.spawnSync = (...args) => (spawned++, real(...args));
      syncBuiltinESMExports();
      const { detectSandbox } = await import(${JSON.stringify(path.join(repoRoot, 'dist/sandbox/detect.js'))});
      console.log(JSON.stringify({ ok: detectSandbox().ok, spawned }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, HOOKWISE_STATE_DIR: stateDir },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as { ok: boolean; spawned: number };
  };

  it('the first process tries it, the next ones read the verdict; a verdict of another boot is not believed', () => {
    const state = path.join(r.root, 'state');
    expect(detectIn(state)).toEqual({ ok: true, spawned: 1 });
    const file = path.join(state, 'sandbox', 'bwrap-works');
    const verdict = fs.readFileSync(file, 'utf8');
    expect(verdict).toContain(fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    expect(detectIn(state)).toEqual({ ok: true, spawned: 0 });
    fs.writeFileSync(file, verdict.replace(/^\S+/, '00000000-0000-0000-0000-000000000000'));
    expect(detectIn(state)).toEqual({ ok: true, spawned: 1 });
    expect(fs.readFileSync(file, 'utf8')).toBe(verdict);
  });
});

describe('sandboxExec (for the shell tools of adapters)', () => {
  it('runs a command in the sandbox of a path policy', async () => {
    const out = await sandboxExec(`echo made > made.txt; cat .env; echo x > ${r.outside}/sentinel.txt`, {
      workspace: r.ws,
      home: r.home,
      env: r.env,
    });
    expect(fs.readFileSync(path.join(r.ws, 'made.txt'), 'utf8')).toBe('made\n');
    expect(out.stdout).not.toContain('sk-proj');
    expect(fs.readFileSync(path.join(r.outside, 'sentinel.txt'), 'utf8')).toBe('untouched\n');
    expect(out.exitCode).not.toBe(0);
  });

  it('needs an absolute workspace', async () => {
    await expect(sandboxExec('ls', { workspace: 'rel' })).rejects.toThrow(/workspace must be an absolute folder/);
  });
});

describe('hookwise sandbox (spawned)', () => {
  const config = () => {
    const file = path.join(r.ws, 'hookwise.config.mjs');
    const guards = path.resolve('dist/guards/index.js');
    fs.writeFileSync(
      file,
      `import { shellGuard } from ${JSON.stringify(guards)};\nexport default { hooks: [shellGuard({ home: ${JSON.stringify(r.home)} })] };\n`,
    );
    return file;
  };

  it(
    "runs the command sandboxed and exits with the command's status",
    async () => {
      const file = config();
      const res = await runCli(
        ['sandbox', '--config', file, '--', 'sh', '-c', 'echo in; echo x > "$1/sentinel.txt"; exit 4', 'sh', r.outside],
        { cwd: r.ws, env: r.env },
      );
      expect(res.code, res.stderr).toBe(4);
      expect(res.stdout).toBe('in\n');
      expect(fs.readFileSync(path.join(r.outside, 'sentinel.txt'), 'utf8')).toBe('untouched\n');
    },
    slack(60_000),
  );

  it(
    'exits 2 with the reason when the policy refuses it',
    async () => {
      const res = await runCli(['sandbox', '--config', config(), 'rm -rf /etc'], { cwd: r.ws, env: r.env });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/refused: `rm -rf` targets \/etc/);
    },
    slack(60_000),
  );
});
