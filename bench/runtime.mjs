import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { HookEngine } from '../dist/index.js';
import { createAgent, defineTool, scriptedProvider } from '../dist/runtime/index.js';

const STEPS = 10;
const CALLS_PER_STEP = 2;
const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'StepStart',
  'PreModelCall',
  'PostModelCall',
  'PreToolUse',
  'PostToolUse',
  'StepEnd',
  'Stop',
  'SessionEnd',
];

/** An in-memory tool, so the run measures the runtime and its hooks, not a file system or a shell. */
const echo = defineTool({ name: 'Echo', description: 'echo', input: z.object({ text: z.string() }), run: ({ text }) => text });

function turns() {
  const list = [];
  for (let s = 0; s < STEPS; s++)
    list.push({
      text: `step ${s}`,
      toolCalls: Array.from({ length: CALLS_PER_STEP }, (_, i) => ({ name: 'Echo', input: { text: `call ${s}.${i}` } })),
    });
  list.push({ text: 'done' });
  return list;
}

/** One agent run of 10 steps and 20 tool calls with 10 function hooks (one per event), transcript on disk. */
async function oneRun(engine, dir) {
  const result = await createAgent({
    provider: scriptedProvider(turns()),
    tools: [echo],
    hooks: engine,
    cwd: dir,
    transcriptDir: dir,
    checkpointDir: false,
  }).run('go');
  if (result.stopReason !== 'end_turn') throw new Error(`bench run ended with ${result.stopReason}`);
}

export async function benchRuntime() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-bench-rt-'));
  const engine = new HookEngine();
  let seen = 0;
  for (const event of EVENTS) engine.register({ name: `count-${event}`, events: event, handler: () => void seen++ });
  try {
    for (let i = 0; i < 20; i++) await oneRun(engine, dir);
    // CPU time (user + system) of this process per run: less disturbed by the other agents on the machine than wall time.
    const cpu = [];
    const wall = [];
    const end = performance.now() + 4000;
    while (performance.now() < end || cpu.length < 30) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await oneRun(engine, dir);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const fires = Math.round(seen / (cpu.length + 20));
    const what = `agent run (${STEPS} steps, ${STEPS * CALLS_PER_STEP} tool calls, 10 hooks, ${fires} fires)`;
    return [
      { name: `${what}: CPU time, median of ${cpu.length}`, ms: median(cpu) },
      { name: `${what}: wall time, median of ${wall.length}`, ms: median(wall) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchRuntime()) console.log(`${row.name}: ${row.ms.toFixed(2)} ms`);
}
