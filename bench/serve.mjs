/**
 * `hookwise serve` under load: PreToolUse through the three built-in guards, 50
 * concurrent connections on loopback, autocannon for a bounded time. The floor is a
 * bare node:http server in its own process answering an empty 200, measured in the
 * same run. Latencies are every response's own (autocannon's histogram keeps whole ms).
 * Also: what instrumentEngine adds to fire() with and without an OpenTelemetry SDK.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measure } from './harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'bench-token-0123456789abcdef';
const CONNECTIONS = 50;

const FLOOR = `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-length': 0 }); res.end(); }); })
  .listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

/** Start a process and wait for its "listening on <url>" line. */
export function startListening(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
  });
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode ?? child.signalCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Load `url` with `requests` (cycled) and return latency percentiles from every response. */
export async function load(url, requests, { connections = CONNECTIONS, durationS = 10, headers = {} } = {}) {
  const times = [];
  let non2xx = 0;
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    requests,
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
    else non2xx++;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    rps: times.length / durationS,
    responses: times.length,
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Rows for bench/run.mjs. */
export const describeServeRow = (r) => [
  r.name,
  `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${Math.round(r.rps).toLocaleString('en-US')} req/s${r.non2xx + r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
];

export async function benchServe({ durationS = Number(process.env.HOOKWISE_BENCH_SERVE_S ?? 10) } = {}) {
  const dir = path.join(root, '.tmp', 'bench-serve');
  rmSync(dir, { recursive: true, force: true });
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  writeFileSync(path.join(project, 'src', 'a.ts'), 'export {}\n');
  writeFileSync(path.join(dir, 'empty.config.mjs'), 'export default { hooks: [] };\n');
  writeFileSync(
    path.join(dir, 'hookwise.config.mjs'),
    `import { defineConfig } from 'hookwise';\nimport { shellGuard, pathGuard, secretGuard } from 'hookwise/guards';\nexport default defineConfig({ hooks: [shellGuard(), pathGuard(), secretGuard()] });\n`,
  );
  const body = (tool, input) =>
    JSON.stringify({
      session_id: 'bench',
      transcript_path: '/dev/null',
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: tool,
      tool_input: input,
      tool_use_id: 't',
    });
  const requests = [
    { body: body('Bash', { command: 'git status' }) },
    { body: body('Bash', { command: 'rm -rf /' }) },
    { body: body('Read', { file_path: path.join(project, 'src', 'a.ts') }) },
    { body: body('Bash', { command: 'npm test -- --run && git diff --stat | head -20' }) },
  ];

  const rows = [];
  const floor = await startListening(['-e', FLOOR]);
  try {
    rows.push({
      name: `floor: bare node:http, empty 200, ${CONNECTIONS} connections`,
      ...(await load(floor.url, requests, { durationS: Math.max(3, durationS / 2) })),
    });
  } finally {
    await stop(floor.child);
  }
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (const [config, label] of [
    ['empty.config.mjs', 'hookwise serve: PreToolUse, no hooks (the server alone)'],
    ['hookwise.config.mjs', 'hookwise serve: PreToolUse, shell+path+secret guards'],
  ]) {
    const served = await startListening(
      [path.join(root, 'bin', 'hookwise.js'), 'serve', '--port', '0', '--config', path.join(dir, config), '--no-watch'],
      {
        cwd: dir,
        env: { ...process.env, HOOKWISE_TOKEN: TOKEN },
      },
    );
    try {
      // Warm the guards' parsers (tree-sitter wasm compiles on first use) before measuring.
      await load(`${served.url}/v1/claude-code`, requests, { durationS: 2, headers: auth, connections: 4 });
      rows.push({
        name: `${label}, ${CONNECTIONS} connections`,
        ...(await load(`${served.url}/v1/claude-code`, requests, { durationS, headers: auth })),
      });
    } finally {
      await stop(served.child);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

/** fire() plain, instrumented with no SDK registered, and instrumented with an SDK recording spans. */
export async function benchTelemetry() {
  const [{ HookEngine }, { instrumentEngine }, api, sdk] = await Promise.all([
    import(path.join(root, 'dist', 'index.js')),
    import(path.join(root, 'dist', 'telemetry', 'index.js')),
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  const make = () => {
    const engine = new HookEngine();
    for (const name of ['a', 'b', 'c']) engine.register({ name, events: ['PreToolUse'], handler: () => undefined });
    return engine;
  };
  const input = { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' };
  const plain = make();
  const noSdk = make();
  instrumentEngine(noSdk);
  const rows = [];
  const interleaved = { plain: Infinity, noSdk: Infinity };
  for (let round = 0; round < 5; round++) {
    interleaved.plain = Math.min(interleaved.plain, await measure(() => plain.fire('PreToolUse', input), { budgetMs: 300 }));
    interleaved.noSdk = Math.min(interleaved.noSdk, await measure(() => noSdk.fire('PreToolUse', input), { budgetMs: 300 }));
  }
  rows.push({ name: 'fire(), 3 hooks, not instrumented', ns: interleaved.plain });
  rows.push({ name: 'fire(), 3 hooks, instrumentEngine with no SDK registered', ns: interleaved.noSdk });
  // Every span is recorded (sampled) and ended; none is exported, so only hookwise's own cost is measured.
  const provider = new sdk.BasicTracerProvider({ spanProcessors: [] });
  api.trace.setGlobalTracerProvider(provider);
  const traced = make();
  instrumentEngine(traced);
  rows.push({
    name: 'fire(), 3 hooks, with an SDK recording a span per fire and per hook',
    ns: await measure(() => traced.fire('PreToolUse', input), { budgetMs: 700, batch: 2000 }),
  });
  await provider.shutdown();
  api.trace.disable();
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await benchServe()) console.log(r);
  for (const r of await benchTelemetry()) console.log(r);
}
