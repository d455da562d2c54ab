// `hookwise claude-code` start-up: wall time from spawn to exit, as Claude Code sees it
// on every tool call. A bare `node -e ''` is measured too: it is the floor on this machine.
// Run: npm run build && node bench/claude-code.mjs
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'hookwise.js');
const RUNS = 15;

const INPUT = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 'bench',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
});

/** A project whose node_modules/hookwise is this checkout, with the example config. */
function project(configName) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-cc-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(root, path.join(dir, 'node_modules', 'hookwise'), 'dir');
  if (configName === 'hookwise.config.ts') copyFileSync(path.join(root, 'examples', 'claude-code', 'hookwise.config.ts'), path.join(dir, configName));
  if (configName === 'hookwise.config.mjs') {
    writeFileSync(
      path.join(dir, configName),
      `import { defineConfig, deny } from 'hookwise';\nexport default defineConfig({ hooks: [{ name: 'block-rm', events: 'PreToolUse', matcher: 'Bash', handler: (i) => String(i.tool_input?.command ?? '').includes('rm -rf') ? deny('no') : undefined }] });\n`,
    );
  }
  return dir;
}

/** Best wall time of RUNS spawns: the run least disturbed by other load on the machine (as bench/harness.mjs does). */
function time(args, { cwd, env = {}, input = '' } = {}) {
  const times = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, input, env: { ...process.env, ...env } });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= 2) times.push(ms);
  }
  return Math.min(...times);
}

export async function benchClaudeCode() {
  const rows = [];
  const dirs = [];
  try {
    rows.push({ name: "node -e '' (the floor: Node's own start-up)", msPerRun: time(['-e', '']) });
    rows.push({ name: 'hookwise --version', msPerRun: time([bin, '--version']) });
    const empty = project(null);
    dirs.push(empty);
    rows.push({ name: 'claude-code, no config in the project', msPerRun: time([bin, 'claude-code'], { cwd: empty, input: INPUT, env: { CLAUDE_PROJECT_DIR: empty } }) });
    const mjs = project('hookwise.config.mjs');
    dirs.push(mjs);
    rows.push({ name: 'claude-code, hookwise.config.mjs (deny)', msPerRun: time([bin, 'claude-code'], { cwd: mjs, input: INPUT, env: { CLAUDE_PROJECT_DIR: mjs } }) });
    const ts = project('hookwise.config.ts');
    dirs.push(ts);
    rows.push({ name: 'claude-code, hookwise.config.ts, transpiled config cached', msPerRun: time([bin, 'claude-code'], { cwd: ts, input: INPUT, env: { CLAUDE_PROJECT_DIR: ts } }) });
    const direct = `const m = await import(${JSON.stringify(pathToFileURL(path.join(root, 'dist', 'cli', 'commands', 'claude-code.js')).href)}); process.exitCode = await m.runClaudeCode([]);`;
    rows.push({
      name: 'runClaudeCode() directly (no commander), hookwise.config.ts cached',
      msPerRun: time(['--input-type=module', '-e', direct], { cwd: ts, input: INPUT, env: { CLAUDE_PROJECT_DIR: ts } }),
    });
    rows.push({
      name: 'claude-code, hookwise.config.ts, no cache (jiti every run)',
      msPerRun: time([bin, 'claude-code'], { cwd: ts, input: INPUT, env: { CLAUDE_PROJECT_DIR: ts, HOOKWISE_NO_CACHE: '1' } }),
    });
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchClaudeCode()) console.log(`${row.name}: ${row.msPerRun.toFixed(1)} ms`);
}
