// What hookwise adds to each OpenCode tool call (docs/agents.md, "OpenCode"): the plugin
// `hookwise init opencode` writes, called as OpenCode calls `tool.execute.before`, wall
// time per call, median of RUNS. Against it, what running the engine inside OpenCode's
// Bun would cost, were that possible (the audit trail's better-sqlite3 does not load in
// Bun: measured here too). Run it in OpenCode's own Bun:
//   npm run build && BUN_BE_BUN=1 .cache/opencode-1.18.33/node_modules/.bin/opencode bench/opencode.mjs
// (node bench/opencode.mjs measures the same under Node.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = path.join(root, 'bin', 'hookwise.js');
const NODE = process.env.HOOKWISE_BENCH_NODE || (process.versions.bun ? Bun.which('node') : process.execPath);
const RUNS = 20;
const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`;

const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-opencode-'));
const index = pathToFileURL(path.join(root, 'dist', 'index.js')).href;
const guards = pathToFileURL(path.join(root, 'dist', 'guards', 'index.js')).href;
writeFileSync(
  path.join(dir, 'hookwise.config.mjs'),
  `import { defineConfig } from ${JSON.stringify(index)};\nimport { shellGuard, pathGuard } from ${JSON.stringify(guards)};\nexport default defineConfig({ hooks: [shellGuard(), pathGuard()] });\n`,
);
process.env.HOOKWISE_RESIDENT_DIR = path.join(dir, 'residents');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name, ms) => console.log(`${name.padEnd(58)} ${ms.toFixed(2).padStart(8)} ms`);

const { openCodePlugin } = await import(pathToFileURL(path.join(root, 'dist', 'hosts', 'opencode', 'plugin.js')).href);
const file = path.join(dir, 'hookwise-plugin.mjs');
writeFileSync(file, openCodePlugin(NODE, bin));
const { Hookwise } = await import(pathToFileURL(file).href);
const hooks = await Hookwise({ directory: dir });
const call = async () => {
  const t = performance.now();
  await hooks['tool.execute.before']({ tool: 'read', sessionID: 'bench', callID: 'c' }, { args: { filePath: path.join(dir, 'a.txt') } });
  return performance.now() - t;
};

console.log(`${runtime}; node for the command: ${NODE}`);
const first = await call();
// The first call starts a resident; wait until it answers.
let warm = [];
for (let i = 0; i < 5; i++) warm.push(await call());
warm = [];
for (let i = 0; i < RUNS; i++) warm.push(await call());
const { spawnSync } = await import('node:child_process');
const floor = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  spawnSync(NODE, ['-e', '0']);
  floor.push(performance.now() - t0);
}
row(`floor: spawning \`node -e 0\` (median of ${RUNS})`, median(floor));
row('plugin → hookwise opencode, first call (no resident yet)', first);
row(`plugin → hookwise opencode → resident (median of ${RUNS})`, median(warm));

const { loadEngine } = await import(pathToFileURL(path.join(root, 'dist', 'cli', 'load-engine.js')).href);
let t = performance.now();
const { engine } = await loadEngine({ config: [path.join(dir, 'hookwise.config.mjs')], cwd: dir });
row(`engine in ${runtime}: loading the config (once per start)`, performance.now() - t);
const input = {
  hook_event_name: 'PreToolUse',
  session_id: 'bench',
  cwd: dir,
  tool_name: 'Read',
  tool_input: { file_path: path.join(dir, 'a.txt') },
};
const fires = [];
for (let i = 0; i < RUNS; i++) {
  t = performance.now();
  await engine.fire('PreToolUse', input, { projectDir: dir });
  fires.push(performance.now() - t);
}
row(`engine in ${runtime}: one fire (median of ${RUNS})`, median(fires));
try {
  const { openAuditStore } = await import(pathToFileURL(path.join(root, 'dist', 'audit', 'index.js')).href);
  openAuditStore({ path: path.join(dir, 'audit.db') }).closeSync();
  console.log(`audit trail in ${runtime}: opens`);
} catch (error) {
  console.log(`audit trail in ${runtime}: ${String(error.message).split('\n')[0]}`);
}
spawnSync(NODE, [bin, 'residents', '--stop'], { env: process.env });
rmSync(dir, { recursive: true, force: true });
