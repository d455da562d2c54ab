import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { toClaudeCodeOutput } from '../../src/cli/commands/claude-code.js';
import { emptyOutcome, type Outcome } from '../../src/core/outcome.js';

/** These spawn the built CLI: run `npm run build` first (npm test does). */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(REPO, 'bin', 'hookwise.js');
const DIST = path.join(REPO, 'dist', 'index.js');
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-claude-code-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const POLICY = `import { defineConfig, deny, block, stop, context, modify, systemMessage, replaceOutput } from ${JSON.stringify(DIST)};
export default defineConfig({ hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: 'rm -rf' }, handler: () => deny('rm -rf is not allowed') },
  { name: 'quiet-npm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '^npm test$' }, handler: (i) => modify({ ...i.tool_input, command: 'npm test --silent' }) },
  { name: 'read-note', events: 'PreToolUse', matcher: 'Read', handler: () => context('files under vendor/ are generated') },
  { name: 'prompt-context', events: 'UserPromptSubmit', handler: () => context('sprint: hooks') },
  { name: 'tests-first', events: 'Stop', handler: (i) => (i.stop_hook_active ? undefined : block('run the tests first')) },
  { name: 'lint', events: 'PostToolUse', matcher: 'Edit', handler: () => block('lint failed') },
  { name: 'mcp-redact', events: 'PostToolUse', matcher: 'mcp__db__query', handler: () => replaceOutput({ rows: '[redacted]' }) },
  { name: 'halt', events: 'PreCompact', handler: () => stop('out of budget') },
  { name: 'hello', events: 'SessionStart', handler: () => systemMessage('hookwise is on') },
] });
`;

function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(root, 'project-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const project = projectWith({
  'hookwise.config.mjs': POLICY,
  // Claude Code's own settings name `hookwise claude-code`; they must not be loaded by it.
  '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo never >&2; exit 2' }] }] } }),
});

function claudeCode(input: Record<string, unknown>, opts: { cwd?: string; env?: Record<string, string>; args?: string[] } = {}) {
  const r = spawnSync(process.execPath, [BIN, 'claude-code', ...(opts.args ?? [])], {
    input: JSON.stringify({ session_id: 's', cwd: opts.cwd ?? project, ...input }),
    encoding: 'utf8',
    cwd: opts.cwd ?? project,
    env: { ...process.env, CLAUDE_PROJECT_DIR: opts.cwd ?? project, HOOKWISE_CLAUDE_CODE: '', ...opts.env },
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json: r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined,
  };
}

describe('hookwise claude-code answers in Claude Code output format', () => {
  it('PreToolUse deny: permissionDecision "deny" with the reason, exit 0', () => {
    const r = claudeCode({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' },
    });
  });

  it('PreToolUse rewrite: updatedInput; context: additionalContext', () => {
    expect(claudeCode({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'npm test --silent' } },
    });
    expect(claudeCode({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: 'a' } }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'files under vendor/ are generated' },
    });
  });

  it('nothing to say: empty stdout, exit 0 (and .claude/settings.json is not run)', () => {
    const r = claudeCode({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('UserPromptSubmit context, Stop block, PostToolUse block, MCP output, stop, systemMessage', () => {
    expect(claudeCode({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'sprint: hooks' },
    });
    expect(claudeCode({ hook_event_name: 'Stop', stop_hook_active: false }).json).toEqual({
      decision: 'block',
      reason: 'run the tests first',
    });
    expect(claudeCode({ hook_event_name: 'Stop', stop_hook_active: true }).stdout).toBe('');
    expect(claudeCode({ hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: {}, tool_response: {} }).json).toEqual({
      decision: 'block',
      reason: 'lint failed',
    });
    expect(claudeCode({ hook_event_name: 'PostToolUse', tool_name: 'mcp__db__query', tool_input: {}, tool_response: {} }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { rows: '[redacted]' } },
    });
    expect(claudeCode({ hook_event_name: 'PreCompact', trigger: 'auto' }).json).toEqual({ continue: false, stopReason: 'out of budget' });
    expect(claudeCode({ hook_event_name: 'SessionStart', source: 'startup' }).json).toEqual({ systemMessage: 'hookwise is on' });
  });

  it('a configuration error fails closed: exit 2 (a block in Claude Code) on PreToolUse, exit 1 where exit 2 cannot block; one line on stderr', () => {
    const broken = projectWith({ 'hookwise.config.mjs': 'export default { hooks: "no" };\n' });
    const message = `${path.join(broken, 'hookwise.config.mjs')}: default.hooks: expected a default export of defineConfig({ hooks: [...] })`;
    const r = claudeCode({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} }, { cwd: broken });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `hookwise failed closed: ${message}\n`]);
    const post = claudeCode({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {} }, { cwd: broken });
    expect([post.code, post.stdout, post.stderr]).toEqual([1, '', `hookwise: ${message}\n`]);
  });

  it('input without hook_event_name is an error; no config is a quiet no-op', () => {
    const missing = claudeCode({ tool_name: 'Bash' });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'hookwise failed closed: stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook\n',
    ]);
    const empty = projectWith({});
    const none = claudeCode({ hook_event_name: 'Stop' }, { cwd: empty });
    expect([none.code, none.stdout, none.stderr]).toEqual([
      0,
      '',
      `hookwise: no hookwise.config.{ts,mts,mjs,js} in ${empty}; nothing to run\n`,
    ]);
  });

  it('--config names the sources; CLAUDE_PROJECT_DIR finds the project from anywhere', () => {
    const elsewhere = projectWith({});
    const viaFlag = claudeCode(
      { hook_event_name: 'Stop' },
      { cwd: elsewhere, args: ['--config', path.join(project, 'hookwise.config.mjs')] },
    );
    expect(viaFlag.json).toEqual({ decision: 'block', reason: 'run the tests first' });
    const r = spawnSync(process.execPath, [BIN, 'claude-code'], {
      input: JSON.stringify({ hook_event_name: 'Stop' }),
      encoding: 'utf8',
      cwd: elsewhere,
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    expect(JSON.parse(r.stdout)).toEqual({ decision: 'block', reason: 'run the tests first' });
  });

  it('a TypeScript config: transpiled once, then loaded from .hookwise/cache', () => {
    const ts = projectWith({
      'hookwise.config.ts': `import { defineConfig, deny } from ${JSON.stringify(DIST)};\nconst reason: string = 'typed deny';\nexport default defineConfig({ hooks: [{ name: 'typed', events: 'PreToolUse', handler: () => deny(reason) }] });\n`,
    });
    const input = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const expected = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'typed deny' },
    };
    expect(claudeCode(input, { cwd: ts }).json).toEqual(expected);
    // The transpiled module (beside it, the config's graph: src/config/policy-graph.ts).
    expect(readdirSync(path.join(ts, '.hookwise', 'cache')).filter((name) => name.endsWith('.mjs'))).toHaveLength(1);
    expect(claudeCode(input, { cwd: ts }).json).toEqual(expected);
  });

  it('a hook that calls `hookwise claude-code` again does not recurse', () => {
    const looping = projectWith({
      'hookwise.config.mjs': `import { defineConfig } from ${JSON.stringify(DIST)};
import { spawnSync } from 'node:child_process';
export default defineConfig({ hooks: [{ name: 'loop', events: 'Stop', handler: () => {
  const inner = spawnSync(process.execPath, [${JSON.stringify(BIN)}, 'claude-code'], { input: '{"hook_event_name":"Stop"}', encoding: 'utf8' });
  return { decision: 'block', reason: 'inner said: ' + JSON.stringify([inner.status, inner.stdout, inner.stderr]) };
} }] });
`,
    });
    const r = claudeCode({ hook_event_name: 'Stop' }, { cwd: looping });
    expect(r.json).toEqual({
      decision: 'block',
      reason: `inner said: ${JSON.stringify([0, '', 'hookwise: claude-code called from one of its own hooks; ignored\n'])}`,
    });
    // Nothing but the config's graph, kept by the outer call (src/config/policy-graph.ts).
    expect(readdirSync(path.join(looping, '.hookwise', 'cache'))).toEqual(['hookwise.config.mjs.files.json']);
    expect(readdirSync(path.join(looping, '.hookwise'))).toEqual(['cache']);
  });
});

/** The CLI with stdin from `stdin` (a descriptor), its output collected until it exits. */
function claudeCodeWith(stdin: 'pipe' | number, cwd: string) {
  const child = spawn(process.execPath, [BIN, 'claude-code'], {
    cwd,
    stdio: [stdin, 'pipe', 'pipe'],
    env: { ...process.env, CLAUDE_PROJECT_DIR: cwd, HOOKWISE_CLAUDE_CODE: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

describe('stdin is read whole, however it arrives (read synchronously, else through the stream)', () => {
  const input = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's',
    cwd: project,
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf /' },
  });
  const denied = {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf is not allowed' },
  };

  it('a pipe written in pieces, with pauses', async () => {
    const { child, done } = claudeCodeWith('pipe', project);
    child.stdin!.write(input.slice(0, 10));
    await sleep(150);
    child.stdin!.write(input.slice(10, 40));
    await sleep(150);
    child.stdin!.end(input.slice(40));
    const r = await done;
    expect([r.code, r.stderr, JSON.parse(r.stdout)]).toEqual([0, '', denied]);
  });

  it('a non-blocking descriptor with nothing to read yet falls back to the stream and keeps what was read', async () => {
    // A FIFO opened O_NONBLOCK: the child's first read of the empty pipe fails with EAGAIN.
    const fifo = path.join(mkdtempSync(path.join(root, 'fifo-')), 'stdin');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    writeSync(writer, input.slice(0, 25));
    const { done } = claudeCodeWith(reader, project);
    closeSync(reader);
    await sleep(300);
    writeSync(writer, input.slice(25));
    closeSync(writer);
    const r = await done;
    expect([r.code, r.stderr, JSON.parse(r.stdout)]).toEqual([0, '', denied]);
  });

  it('a file, and /dev/null (empty: no hook_event_name)', () => {
    const file = path.join(mkdtempSync(path.join(root, 'stdin-')), 'input.json');
    writeFileSync(file, input);
    const env = { ...process.env, CLAUDE_PROJECT_DIR: project, HOOKWISE_CLAUDE_CODE: '' };
    const run = (stdinPath: string) => {
      const fd = openSync(stdinPath, 'r');
      try {
        return spawnSync(process.execPath, [BIN, 'claude-code'], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', env });
      } finally {
        closeSync(fd);
      }
    };
    const fromFile = run(file);
    expect([fromFile.status, JSON.parse(fromFile.stdout)]).toEqual([0, denied]);
    const fromNull = run('/dev/null');
    expect([fromNull.status, fromNull.stdout, fromNull.stderr]).toEqual([
      2,
      '',
      'hookwise failed closed: stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook\n',
    ]);
  });
});

describe('runClaudeCode: the same command without commander (for a fast launcher)', () => {
  const direct = (args: string[], input: Record<string, unknown>) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(path.join(REPO, 'dist', 'cli', 'commands', 'claude-code.js'))}); process.exitCode = await m.runClaudeCode(${JSON.stringify(args)});`,
      ],
      {
        input: JSON.stringify(input),
        encoding: 'utf8',
        cwd: root,
        env: { ...process.env, CLAUDE_PROJECT_DIR: project, HOOKWISE_CLAUDE_CODE: '' },
      },
    );

  it('answers like the command', () => {
    const r = direct([], { hook_event_name: 'Stop' });
    expect([r.status, JSON.parse(r.stdout)]).toEqual([0, { decision: 'block', reason: 'run the tests first' }]);
    const viaFlag = direct(['--config', path.join(project, 'hookwise.config.mjs')], { hook_event_name: 'PreCompact' });
    expect(JSON.parse(viaFlag.stdout)).toEqual({ continue: false, stopReason: 'out of budget' });
  });

  it('errors are one line and fail closed (on Stop the run ends: exit 2 would keep Claude Code going)', () => {
    const r = direct(['--bogus'], { hook_event_name: 'Stop' });
    const bogus = 'hookwise failed closed: claude-code: unknown argument --bogus';
    expect([r.status, r.stderr, JSON.parse(r.stdout)]).toEqual([0, `${bogus}\n`, { continue: false, stopReason: bogus }]);
    const missing = direct(['--config', path.join(root, 'nope.mjs')], { hook_event_name: 'Stop' });
    expect([missing.status, missing.stderr]).toEqual([0, `hookwise failed closed: ${path.join(root, 'nope.mjs')}: file not found\n`]);
    expect(direct(['--bogus'], { hook_event_name: 'PreToolUse' }).status).toBe(2);
  });
});

describe('toClaudeCodeOutput', () => {
  const outcome = (event: string, fields: Partial<Outcome>): Outcome => ({ ...emptyOutcome(event), ...fields });

  it('PermissionRequest answers with decision.behavior', () => {
    expect(toClaudeCodeOutput(outcome('PermissionRequest', { decision: 'allow', updatedInput: { a: 1 } }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { a: 1 } } },
    });
    expect(toClaudeCodeOutput(outcome('PermissionRequest', { decision: 'deny', blocked: true, reason: 'no' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } },
    });
    expect(toClaudeCodeOutput(outcome('PermissionRequest', { decision: 'ask' }))).toBeUndefined();
  });

  it('a blocked PreToolUse never carries its rewrite; ask and defer pass through', () => {
    expect(toClaudeCodeOutput(outcome('PreToolUse', { decision: 'deny', blocked: true, reason: 'r', updatedInput: { x: 1 } }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'r' },
    });
    expect(toClaudeCodeOutput(outcome('PreToolUse', { decision: 'ask', reason: 'check' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'check' },
    });
  });

  it('a stop wins over a block; context stays off events whose output has no place for it', () => {
    expect(toClaudeCodeOutput(outcome('Stop', { stop: true, stopReason: 'halt', blocked: true, reason: 'halt' }))).toEqual({
      continue: false,
      stopReason: 'halt',
    });
    expect(toClaudeCodeOutput(outcome('SessionEnd', { additionalContext: 'x', suppressOutput: true }))).toEqual({ suppressOutput: true });
  });
});
