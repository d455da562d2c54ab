/**
 * `npm run bench`: every benchmark of the project, measured in one run on this
 * machine, printed as Markdown tables (paste them into docs/benchmarks.md).
 */
import os from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchEngine, benchScale } from './engine.mjs';
import { formatNs, table } from './harness.mjs';
import { describeServeRow } from './serve.mjs';
import { describeFleetRow } from './fleet.mjs';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));

console.log(
  `machine: ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, node ${process.version}`,
);
console.log(
  `date: ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}\n`,
);

const engineRows = await benchEngine();
const base = engineRows[0].ns;
console.log('## Engine\n');
console.log(
  table(
    ['case', 'time per op', 'vs 0 hooks'],
    engineRows.map((r) => [r.name, formatNs(r.ns), `${(r.ns / base).toFixed(2)}x`]),
  ),
);
const ns = (prefix) => engineRows.find((r) => r.name.startsWith(prefix)).ns;
const mine = ns('hookwise fire(), 3 matching function hooks');
console.log(
  `\nwith the same 3 handlers, inputs as a direct engine user passes them: hookwise / tapable ${(mine / ns('tapable')).toFixed(2)}x (target <= 2.5x), hookwise / hookable ${(mine / ns('hookable')).toFixed(2)}x, hookwise / emittery ${(mine / ns('emittery')).toFixed(2)}x (targets < 1x)`,
);

console.log('\n## Engine: scale sweep (PreToolUse for Bash, direct-user input)\n');
const sweep = await benchScale();
const sizes = [...new Set(sweep.map((r) => r.size))];
const cell = (kind, size, matching) => formatNs(sweep.find((r) => r.kind === kind && r.size === size && r.matching === matching).ns);
console.log(
  table(
    ['hooks', 'exact, none match', 'exact, one matches', 'regex, none match', 'regex, one matches'],
    sizes.map((size) => [
      size.toLocaleString('en-US'),
      cell('exact', size, 'none'),
      cell('exact', size, 'one'),
      cell('regex', size, 'none'),
      cell('regex', size, 'one'),
    ]),
  ),
);

// Benchmarks of other parts live beside this file; each exports one function returning rows.
const parts = [
  ['guards.mjs', 'benchGuards', 'Guards', (r) => [r.name, formatNs(r.nsPerOp)]],
  ['guards-compare.mjs', 'benchGuardsCompareRows', 'Guards against e9f49d2 (target <= 1.5x)', (r) => [r.name, r.text]],
  ['audit.mjs', 'benchAudit', 'Audit store', (r) => [r.name, `${Math.round(r.recordsPerSecond).toLocaleString('en-US')} records/s`]],
  ['runtime.mjs', 'benchRuntime', 'Agent runtime', (r) => [r.name, `${r.ms.toFixed(2)} ms`]],
  ['sandbox.mjs', 'benchSandbox', 'The OS sandbox', (r) => [r.name, r.text]],
  ['checkpoints.mjs', 'benchCheckpoints', 'Checkpoints (undo)', (r) => [r.name, r.text]],
  ['claude-code.mjs', 'benchClaudeCode', '`hookwise claude-code` start-up', (r) => [r.name, r.text ?? `${r.msPerRun.toFixed(1)} ms`]],
  ['claude-code-mod.mjs', 'benchClaudeCodeMod', 'Claude Code 2.1.328 with the in-process mod', (r) => [r.name, r.text]],
  [
    'claude-code-calls.mjs',
    'benchClaudeCodeCalls',
    'A Bash call in a real Claude Code 2.1.328 session, each way of wiring hookwise, at load 2 and 6 (issue 37)',
    (r) => [r.name, r.text],
  ],
  ['serve.mjs', 'benchServe', '`hookwise serve` under load', (r) => describeServeRow(r)],
  ['serve.mjs', 'benchTelemetry', 'Telemetry cost per fire', (r) => [r.name, formatNs(r.ns)]],
  ['replay.mjs', 'benchReplay', 'Replay of an audit trail (target >= 20,000 events/s)', (r) => [r.name, r.text]],
  ['fleet.mjs', 'benchFleetRuns', 'Fleet: 3 replicas, one Redis, one PostgreSQL trail', (r) => describeFleetRow(r)],
];
for (const [file, fn, title, row] of parts) {
  if (!existsSync(here(`./${file}`))) continue;
  const mod = await import(`./${file}`);
  const rows = await mod[fn]();
  console.log(`\n## ${title}\n`);
  console.log(table(['case', 'result'], rows.map(row)));
}

if (existsSync(here('./adapters.mjs'))) {
  const { benchAdapters } = await import('./adapters.mjs');
  const rows = await benchAdapters();
  console.log('\n## Adapters (10 no-op hooks on PreToolUse and PostToolUse)\n');
  const us = (ns) => `${(ns / 1e3).toFixed(1)} µs`;
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    table(
      [
        'framework',
        'bare, per tool call (fastest)',
        'with hookwise (fastest)',
        'added (median of paired batches)',
        'interquartile mean (middle half)',
        'fastest against fastest',
        'pairs x runs, load',
      ],
      rows.map((r) => [
        r.name,
        us(r.bareNs),
        us(r.hookedNs),
        pct(r.overhead),
        `${pct(r.interquartileMean)} (${pct(r.middleHalf[0])} to ${pct(r.middleHalf[1])})`,
        pct(r.fastestRatio),
        `${r.pairs} x ${r.batch}, ${r.load.map((l) => l.toFixed(2)).join('-')}`,
      ]),
    ),
  );
}
