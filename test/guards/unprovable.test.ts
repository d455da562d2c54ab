/**
 * Issue 9, items 3 and 5: the guards' workspace is the host's project folder
 * (never the process's cwd), /proc links are unprovable, and what the path and
 * secret guards cannot read is refused, not skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import type { HandlerReturn, HookContext } from '../../src/core/spec.js';
import type { HookInput } from '../../src/core/input.js';
import { PathPolicy, pathGuard, secretGuard, shellGuard } from '../../src/guards/index.js';
import { outsideDir } from '../support/outside-dir.js';
import { makeFixture, type Fixture } from './fixture.js';

let f: Fixture;
beforeAll(() => {
  f = makeFixture();
});
afterAll(() => f.cleanup());

const KEY = 'sk-' + 'proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';

/**
 * Any guard's hook, whatever events it is typed for: `handler` as a method (its
 * parameter is checked both ways), so a PreToolUse or PostToolUse hook fits.
 */
type GuardHook = { handler(input: HookInput, ctx: HookContext): HandlerReturn | Promise<HandlerReturn> };

/**
 * Call a hook's handler as the engine would, with a context that may carry the host's project folder.
 * The context is partial on purpose: the guards read only `projectDir` of it.
 */
async function call(spec: GuardHook, input: HookInput, ctx: Partial<HookContext> = {}) {
  return spec.handler(input, { annotate: () => {}, ...ctx } as HookContext);
}

describe('the workspace is the host project folder, never the process cwd', () => {
  it('a guard made without `workspace` judges against the input cwd, wherever the process runs', async () => {
    // The process runs in the repository, not the fixture: on the old rule every fixture path was "outside".
    expect(process.cwd()).not.toBe(f.ws);
    const engine = new HookEngine().register(shellGuard({ home: f.home }));
    const inside = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: `rm -rf ${f.ws}/build` }, cwd: f.ws });
    expect(inside.decision).toBeNull();
    // Under the checkout when it is not in /tmp (inside the process cwd, outside the workspace).
    const elsewhere = outsideDir('hookwise-unprovable-');
    try {
      const outside = await engine.fire('PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command: `rm -rf ${elsewhere}/x` },
        cwd: f.ws,
      });
      expect(outside.decision).toBe('deny');
      expect(outside.reason).toContain(`outside the workspace ${f.ws}`);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('ctx.projectDir wins over the input cwd (a session that cd-ed into a subfolder keeps its project)', async () => {
    // Without the sandbox, whose own /tmp would contain the fixture's ../build.
    const guard = shellGuard({ home: f.home, sandbox: 'off' });
    const sub = path.join(f.ws, 'src');
    const r = await call(guard, { tool_name: 'Bash', tool_input: { command: 'rm -rf ../build' }, cwd: sub }, { projectDir: f.ws });
    expect(r).toBeUndefined();
    const out = await call(guard, { tool_name: 'Bash', tool_input: { command: 'rm -rf ../build' }, cwd: sub }, { projectDir: sub });
    expect(out).toMatchObject({ kind: 'deny' });
  });

  it('an explicit `workspace` option still wins over the host', async () => {
    const guard = pathGuard({ workspace: f.ws, home: f.home });
    const r = await call(
      guard,
      { tool_name: 'Write', tool_input: { file_path: path.join(f.outside, 'x') }, cwd: f.outside },
      { projectDir: f.outside },
    );
    expect(r).toMatchObject({ kind: 'deny' });
  });

  it('with no workspace known at all, the shell and path guards refuse (and ask when interactive)', async () => {
    const engine = new HookEngine().register(shellGuard()).register(pathGuard({ name: 'guard:path' }));
    const bash = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(bash.decision).toBe('deny');
    expect(bash.reason).toContain('has no workspace');
    const read = await engine.fire('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'README.md' }, cwd: 'relative/dir' });
    expect(read.decision).toBe('deny');
    const asked = await call(shellGuard({ interactive: true }), { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(asked).toMatchObject({ kind: 'ask' });
  });

  it('the built-in PreToolUse guards ask to be judged again on the final input', () => {
    expect(shellGuard().recheck).toBe(true);
    expect(pathGuard().recheck).toBe(true);
    const [input, output] = secretGuard();
    expect(input!.recheck).toBe(true);
    expect(output!.events).toBe('PostToolUse');
  });
});

describe('/proc links are unprovable, not resolved against the guard process', () => {
  it.each([
    '/proc/self/cwd/x',
    '/proc/self/root/etc/passwd',
    '/proc/1/cwd/.env',
    '/proc/thread-self/root/etc/x',
    '/dev/fd/9',
    '/proc/self/fd/7/x',
  ])('%s', (p) => {
    const policy = new PathPolicy({ workspace: f.ws, home: f.home });
    const w = policy.check(p, 'write', { cwd: f.ws });
    expect(w.level).toBe('unprovable');
    expect(w.why).toContain('/proc link');
    expect(policy.isSecret(p, f.ws)?.level).toBe('unprovable');
  });

  it('the standard streams stay devices', () => {
    const policy = new PathPolicy({ workspace: f.ws, home: f.home });
    expect(policy.isSecret('/dev/stdin', f.ws)).toBeUndefined();
    expect(policy.isSecret('/proc/self/fd/2', f.ws)).toBeUndefined();
  });

  it('a Read of /proc/self/cwd/... is refused by the path guard', async () => {
    const r = await call(pathGuard({ home: f.home, read: 'anywhere' }), {
      tool_name: 'Read',
      tool_input: { file_path: '/proc/self/cwd/.env' },
      cwd: f.ws,
    });
    expect(r).toMatchObject({ kind: 'deny' });
    expect(JSON.stringify(r)).toContain('/proc link');
  });
});

describe('the path guard refuses what it cannot read', () => {
  const guard = () => pathGuard({ workspace: f.ws, home: f.home });
  it.each([
    ['an array', ['src/a.ts', '/etc/passwd']],
    ['an object', { path: '/etc/passwd' }],
    ['a number', 42],
    ['empty', ''],
  ])('a Write whose file_path is %s', async (_what, filePath) => {
    const r = await call(guard(), { tool_name: 'Write', tool_input: { file_path: filePath, content: 'x' }, cwd: f.ws });
    expect(r).toMatchObject({ kind: 'deny' });
    expect(JSON.stringify(r)).toMatch(/file_path is (an array|object|number|empty)/);
  });

  it('a Write that names no file', async () => {
    const r = await call(guard(), { tool_name: 'Write', tool_input: { content: 'x' }, cwd: f.ws });
    expect(r).toMatchObject({ kind: 'deny' });
  });

  it.each(['link-out/**', 'link-out/*.txt', 'link-*/**', '*/file.txt', '{link-out,src}/*'])(
    'Glob %s, through a symlink that leaves the workspace',
    async (pattern) => {
      const r = await call(guard(), { tool_name: 'Glob', tool_input: { pattern }, cwd: f.ws });
      expect(r, pattern).toMatchObject({ kind: 'deny' });
    },
  );

  it('Glob ** from a folder holding a symlink out, and Grep with a glob through it', async () => {
    expect(await call(guard(), { tool_name: 'Glob', tool_input: { pattern: '**/*.txt' }, cwd: f.ws })).toMatchObject({ kind: 'deny' });
    expect(await call(guard(), { tool_name: 'Grep', tool_input: { pattern: 'x', glob: 'link-out/**' }, cwd: f.ws })).toMatchObject({
      kind: 'deny',
    });
    expect(await call(guard(), { tool_name: 'Grep', tool_input: { pattern: 'x', glob: ['a'] }, cwd: f.ws })).toMatchObject({
      kind: 'deny',
    });
  });

  it('look-alikes stay allowed: globs and searches inside', async () => {
    const inner = fs.mkdtempSync(path.join(f.root, 'clean-'));
    fs.mkdirSync(path.join(inner, 'src'));
    fs.symlinkSync(path.join(inner, 'src'), path.join(inner, 'lib'));
    const g = pathGuard({ home: f.home });
    for (const pattern of ['src/**/*.ts', '**/*.ts', '*.md', 'lib/*.ts', 'src/*/index.ts']) {
      expect(await call(g, { tool_name: 'Glob', tool_input: { pattern }, cwd: inner }), pattern).toBeUndefined();
    }
    expect(await call(g, { tool_name: 'Grep', tool_input: { pattern: 'TODO', glob: '*.ts', path: 'src' }, cwd: inner })).toBeUndefined();
    expect(await call(g, { tool_name: 'Write', tool_input: { file_path: 'src/new.ts', content: '' }, cwd: inner })).toBeUndefined();
    expect(await call(g, { tool_name: 'Read', tool_input: { file_path: 'src/new.ts', offset: 3 }, cwd: inner })).toBeUndefined();
  });

  it('editor and MCP launch configs are protected from the file tools too', async () => {
    for (const file of [
      '.cursor/mcp.json',
      '.mcp.json',
      '.vscode/tasks.json',
      '.vscode/launch.json',
      '.claude/settings.local.json',
      '.git/hooks/pre-push',
      '.husky/pre-commit',
      'packages/web/.vscode/tasks.json',
      // Where agents run hookwise from (docs/agents.md): rewritten, the agent would run without it.
      '.clinerules/hooks/PreToolUse',
      '.cline/hooks/PreToolUse',
      '.github/hooks/hookwise.json',
      '.gemini/settings.json',
      '.opencode/plugins/hookwise.js',
      '.factory/hooks.json',
    ]) {
      const r = await call(pathGuard({ home: f.home }), {
        tool_name: 'Edit',
        tool_input: { file_path: file, old_string: 'a', new_string: 'b' },
        cwd: f.ws,
      });
      expect(r, file).toMatchObject({ kind: 'deny' });
    }
    expect(
      await call(pathGuard({ home: f.home }), { tool_name: 'Read', tool_input: { file_path: '.mcp.json' }, cwd: f.ws }),
    ).toBeUndefined();
  });
});

describe('the secret guard has no place a secret can hide', () => {
  const deep = (levels: number, leaf: unknown): unknown => {
    let v = leaf;
    for (let i = 0; i < levels; i++) v = { n: v };
    return v;
  };

  it('finds a secret used as an object key', async () => {
    const [guard] = secretGuard();
    const r = await call(guard!, { tool_name: 'mcp__x__call', tool_input: { headers: { [KEY]: true } } });
    expect(r).toMatchObject({ kind: 'deny' });
  });

  it.each([40, 200, 5000])('finds a secret nested %i levels deep', async (levels) => {
    const [guard] = secretGuard();
    const r = await call(guard!, { tool_name: 'mcp__x__call', tool_input: deep(levels, KEY) as Record<string, unknown> });
    expect(r).toMatchObject({ kind: 'deny' });
  });

  it('redact mode rewrites a key, and refuses what it cannot rewrite', async () => {
    const [guard] = secretGuard({ mode: 'redact' });
    const r = (await call(guard!, { tool_name: 'T', tool_input: { headers: { [KEY]: 'v' } } })) as {
      updatedInput?: Record<string, unknown>;
    };
    expect(JSON.stringify(r.updatedInput)).not.toContain(KEY);
    expect(JSON.stringify(r.updatedInput)).toContain('[REDACTED:openai-api-key]');
    const tooDeep = await call(guard!, { tool_name: 'T', tool_input: deep(20000, KEY) as Record<string, unknown> }).catch((e: unknown) => ({
      threw: String(e),
    }));
    // Either refused outright or the handler throws, which the guard's onError: block turns into a deny.
    expect(JSON.stringify(tooDeep)).toMatch(/deny|threw/);
    expect(guard!.onError).toBe('block');
  });

  it('output nested deeper than redaction can reach is withheld, not shown', async () => {
    const [, output] = secretGuard();
    const r = (await call(output!, { tool_name: 'T', tool_response: deep(20000, KEY) })) as { updatedOutput?: unknown };
    expect(JSON.stringify(r.updatedOutput)).toContain('withheld');
  });

  it('look-alikes stay allowed: an env var naming a secret file is not a secret', async () => {
    const [guard] = secretGuard();
    for (const command of [
      'SECRET_FILE=/run/secrets/db_password npm start',
      'export DB_PASSWORD_FILE=/run/secrets/db_password',
      'TOKEN_PATH=./config/token.json node app.js',
      'git status',
    ]) {
      expect(await call(guard!, { tool_name: 'Bash', tool_input: { command } }), command).toBeUndefined();
    }
    expect(await call(guard!, { tool_name: 'T', tool_input: deep(100, 'just a value') as Record<string, unknown> })).toBeUndefined();
  });
});
