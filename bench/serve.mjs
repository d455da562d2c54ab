/**
 * `hookwise serve` under load: PreToolUse through the three built-in guards, 50
 * concurrent connections on loopback, for a bounded time. The floor is a bare node:http
 * server in its own process answering an empty 200, measured in the same run.
 * The load generator is wrk when it is on PATH (C: it takes less of the two cores from
 * the server than autocannon, which is JavaScript; on the 2-core bench machine about 0.7
 * of a core against 0.9 at 40,000 req/s, most of either being the kernel's socket work),
 * else autocannon; HOOKWISE_BENCH_LOADGEN=autocannon|wrk|both picks (both: each server is
 * loaded by each generator in turn, in the same run). Every response is counted;
 * non-2xx answers are errors, not latencies. Each row also gives the server's CPU per
 * answer (from /proc) and the cores the load generator used.
 * Also: what instrumentEngine adds to fire() with and without an OpenTelemetry SDK.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

/** wrk's path when it is on PATH (Debian: `apt-get install wrk`). */
export function findWrk() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'wrk');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** The generators this run uses: HOOKWISE_BENCH_LOADGEN, else wrk when installed, else autocannon. */
export function loadGenerators(choice = process.env.HOOKWISE_BENCH_LOADGEN) {
  const wrk = findWrk();
  if (choice === 'both' || choice === 'wrk') {
    if (!wrk) throw new Error(`HOOKWISE_BENCH_LOADGEN=${choice} but wrk is not on PATH (apt-get install wrk)`);
    return choice === 'both' ? ['wrk', 'autocannon'] : ['wrk'];
  }
  if (choice === 'autocannon') return ['autocannon'];
  if (choice) throw new Error(`HOOKWISE_BENCH_LOADGEN must be wrk, autocannon or both, got ${choice}`);
  return [wrk ? 'wrk' : 'autocannon'];
}

/**
 * Load `url` with `requests` (cycled, POSTed as JSON) and return latency percentiles of
 * every 2xx response; anything else counts as non2xx or errors.
 */
export async function load(url, requests, { generator = 'autocannon', serverPid, ...options } = {}) {
  const before = serverPid && treeCpuSeconds(serverPid);
  const r = await (generator === 'wrk' ? loadWithWrk(url, requests, options) : loadWithAutocannon(url, requests, options));
  const after = serverPid && treeCpuSeconds(serverPid);
  if (before !== undefined && after !== undefined && r.responses > 0) r.serverCpuUs = ((after - before) * 1e6) / r.responses;
  return r;
}

/** CPU seconds of a process and its children (`serve --workers`: the primary and every worker). */
function treeCpuSeconds(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {}
  const own = cpuSeconds(pid);
  if (own === undefined) return undefined;
  return children.reduce((sum, child) => sum + (cpuSeconds(child) ?? 0), own);
}

let clockTicks;
/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is none. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

async function loadWithAutocannon(url, requests, { connections = CONNECTIONS, durationS = 10, headers = {} } = {}) {
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
  // autocannon runs in this process: what it costs is this process's CPU over the run.
  const cpu = process.cpuUsage();
  const result = await instance;
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return {
    generatorCores: (used.user + used.system) / 1e6 / durationS,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    rps: times.length / durationS,
    responses: times.length,
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A Lua string literal of any text: a long bracket whose level the text does not contain. */
const luaString = (text) => {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  // A long bracket drops a newline right after the opening; a leading one would be lost.
  return `[${level}[\n${text}]${level}]`;
};

/**
 * The wrk script: the same bodies, cycled in order, with the same headers as autocannon
 * sends. `response` counts every answer that is not a 2xx (wrk's own status error
 * counts only >= 400); `done` prints the figures as one JSON line.
 */
export function wrkScript(requests, urlPath, headers) {
  const all = { 'content-type': 'application/json', ...headers };
  const headerLines = Object.entries(all)
    .map(([k, v]) => `  [ ${luaString(k)} ] = ${luaString(String(v))},`)
    .join('\n');
  return `local bodies = {
${requests.map((r) => `  ${luaString(r.body)},`).join('\n')}
}
local headers = {
${headerLines}
}
local prepared = {}
local next_index = 0
local threads = {}
non2xx = 0

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for i, body in ipairs(bodies) do
    prepared[i] = wrk.format("POST", ${luaString(urlPath)}, headers, body)
  end
end

function request()
  next_index = next_index % #prepared + 1
  return prepared[next_index]
end

function response(status, headers, body)
  if status < 200 or status >= 300 then non2xx = non2xx + 1 end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + thread:get("non2xx") end
  local e = summary.errors
  io.write(string.format('HOOKWISE_WRK {"requests":%d,"durationUs":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, bad, e.connect, e.read, e.write, e.timeout, latency:percentile(50), latency:percentile(99)))
end
`;
}

/**
 * wrk, one thread (a second one would only take CPU from the server on two cores), the
 * same connections and duration, autocannon's 10 s timeout. Percentiles are wrk's
 * histogram of every response (to the microsecond); req/s counts 2xx answers over the
 * time wrk measured.
 */
async function loadWithWrk(url, requests, { connections = CONNECTIONS, durationS = 10, headers = {} } = {}) {
  const wrk = findWrk();
  if (!wrk) throw new Error('wrk is not on PATH');
  if (!Number.isInteger(durationS)) throw new Error(`wrk runs for whole seconds, not ${durationS}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-wrk-'));
  try {
    const script = path.join(dir, 'requests.lua');
    writeFileSync(script, wrkScript(requests, new URL(url).pathname, headers));
    const args = ['-t1', `-c${connections}`, `-d${durationS}s`, '--timeout', '10s', '--latency', '-s', script, url];
    let child;
    const done = new Promise((resolve, reject) => {
      child = execFile(wrk, args, { maxBuffer: 1 << 20 }, (error, out, err) =>
        error ? reject(new Error(`wrk: ${error.message} ${err}`)) : resolve({ out, err }),
      );
    });
    // wrk's CPU: read while it runs (once it has exited there is nothing to read).
    let wrkCpu;
    const poll = setInterval(() => (wrkCpu = cpuSeconds(child.pid) ?? wrkCpu), 100);
    const { out: stdout, err: stderr } = await done.finally(() => clearInterval(poll));
    const line = /^HOOKWISE_WRK (\{.*\})$/m.exec(stdout);
    // wrk reports an error in the script on stderr and still exits 0.
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}\n${stderr}`);
    const r = JSON.parse(line[1]);
    const ok = r.requests - r.non2xx;
    return {
      ...(wrkCpu !== undefined && { generatorCores: wrkCpu / (r.durationUs / 1e6) }),
      p50: r.p50Us / 1000,
      p99: r.p99Us / 1000,
      rps: ok / (r.durationUs / 1e6),
      responses: ok,
      non2xx: r.non2xx,
      errors: r.connect + r.read + r.write + r.timeout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows for bench/run.mjs. */
export const describeServeRow = (r) =>
  r.text !== undefined
    ? [r.name, r.text]
    : [
        r.name,
        `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${Math.round(r.rps).toLocaleString('en-US')} req/s${r.non2xx + r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}` +
          (r.serverCpuUs !== undefined ? `; server CPU ${r.serverCpuUs.toFixed(0)} µs/answer` : '') +
          (r.generatorCores !== undefined ? `; load generator ${r.generatorCores.toFixed(2)} cores` : ''),
      ];

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** Rounds of the target pair: the floor, then `--workers auto`, in turn, so both see the same minutes of a noisy machine. */
const TARGET_ROUNDS = Number(process.env.HOOKWISE_BENCH_SERVE_ROUNDS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchServe({
  durationS = Number(process.env.HOOKWISE_BENCH_SERVE_S ?? 10),
  generators = loadGenerators(),
  rounds = TARGET_ROUNDS,
  log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  log(`bench/serve: load generator${generators.length > 1 ? 's' : ''}: ${generators.join(', ')}`);
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
  const requests = serveRequests(project);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const floorDuration = Math.max(3, Math.round(durationS / 2));

  const rows = [];
  const measured = async (name, url, serverPid, options) => {
    for (const generator of generators) {
      const load_ = `load average ${loadAverage()}`;
      const r = await load(url, requests, { ...options, generator, serverPid });
      rows.push({ name: `${name} (${generator}, ${load_})`, generator, ...r });
      log(describeServeRow(rows.at(-1)).join(': '));
    }
    return rows.at(-generators.length);
  };
  const served = async (config, args, use) => {
    const server = await startServe(path.join(dir, config), dir, [], args);
    try {
      // Warm up at full load before measuring: tree-sitter's wasm compiles on first use and V8
      // optimises the hot paths over the first seconds (2 s at 4 connections left the first
      // measured run of a 2-core machine far slower than the runs after it).
      await load(`${server.url}/v1/claude-code`, requests, {
        durationS: Math.max(3, Math.round(durationS / 3)),
        headers: auth,
        generator: generators[0],
      });
      return await use(`${server.url}/v1/claude-code`, server.child.pid);
    } finally {
      await stop(server.child);
    }
  };

  // The target (docs/benchmarks.md): `--workers auto` against the floor, a bare node:http server
  // answering an empty 200, in alternating runs; the verdict is on the medians.
  const cores = os.availableParallelism();
  const floor = await startListening(['-e', FLOOR]);
  const pairs = [];
  try {
    await served('hookwise.config.mjs', ['--workers', 'auto'], async (url, pid) => {
      for (let round = 1; round <= rounds; round++) {
        const base = await measured(
          `floor: bare node:http, empty 200, ${CONNECTIONS} connections, round ${round}`,
          floor.url,
          floor.child.pid,
          {
            durationS: floorDuration,
          },
        );
        const hooked = await measured(
          `hookwise serve --workers auto (${cores}): PreToolUse, shell+path+secret guards, ${CONNECTIONS} connections, round ${round}`,
          url,
          pid,
          { durationS, headers: auth },
        );
        pairs.push({ floor: base, hooked });
      }
    });
  } finally {
    await stop(floor.child);
  }
  for (const [config, label] of [
    ['empty.config.mjs', 'hookwise serve: PreToolUse, no hooks (the server alone), one process'],
    ['hookwise.config.mjs', 'hookwise serve: PreToolUse, shell+path+secret guards, one process'],
  ]) {
    await served(config, [], (url, pid) => measured(`${label}, ${CONNECTIONS} connections`, url, pid, { durationS, headers: auth }));
  }
  rmSync(dir, { recursive: true, force: true });
  rows.push({ name: 'target: --workers auto, p50 under 2 ms and p99 under 10 ms', text: serveVerdict(pairs) });
  return rows;
}

/** The target's verdict on the medians of the alternating runs, with the floor of the same runs beside it. */
export function serveVerdict(pairs) {
  const p50 = median(pairs.map((p) => p.hooked.p50));
  const p99 = median(pairs.map((p) => p.hooked.p99));
  const floorP50 = median(pairs.map((p) => p.floor.p50));
  const ratio = median(pairs.map((p) => p.hooked.p50 / p.floor.p50));
  const met = (ok) => (ok ? 'met' : 'NOT met');
  return (
    `median of ${pairs.length} runs: p50 ${p50.toFixed(2)} ms (${met(p50 < 2)}), p99 ${p99.toFixed(2)} ms (${met(p99 < 10)}); ` +
    `the floor's p50 in the same minutes ${floorP50.toFixed(2)} ms, hookwise / floor ${ratio.toFixed(2)}x`
  );
}

/** `hookwise serve` on a free port with one config and the bench's token. */
export function startServe(config, cwd, nodeArgs = [], serveArgs = []) {
  return startListening(
    [...nodeArgs, path.join(root, 'bin', 'hookwise.js'), 'serve', '--port', '0', '--config', config, '--no-watch', ...serveArgs],
    {
      cwd,
      env: { ...process.env, HOOKWISE_TOKEN: TOKEN },
    },
  );
}

export const BENCH_TOKEN = TOKEN;

/** The four PreToolUse inputs every generator cycles through, in this order. */
export function serveRequests(project) {
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
  return [
    { body: body('Bash', { command: 'git status' }) },
    { body: body('Bash', { command: 'rm -rf /' }) },
    { body: body('Read', { file_path: path.join(project, 'src', 'a.ts') }) },
    { body: body('Bash', { command: 'npm test -- --run && git diff --stat | head -20' }) },
  ];
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
  // benchServe prints each row as it is measured.
  await benchServe();
  for (const r of await benchTelemetry()) console.log(r);
}
