// Adapter overhead: agent runs per framework with its own mock model, bare and
// wrapped by hookwise with 10 no-op function hooks on PreToolUse and PostToolUse.
// A run is TURNS model turns that each call the echo tool PER_TURN times, then a
// final answer; the cost per tool call is the run's time over its tool calls.
// Bare and wrapped batches of runs alternate in pairs; the overhead is read from the
// pairs' ratios (both batches of a pair meet the same load on a shared machine).
// Run: npm run build && node bench/adapters.mjs  (BENCH_ROW_SECONDS=4 by default)
import { loadavg } from 'node:os';
import { Agent, run, setTracingDisabled, tool as openaiTool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAgent, tool as lcTool } from 'langchain';
import { z } from 'zod';
import { hookTools } from '../dist/adapters/ai-sdk/index.js';
import { hookwiseMiddleware } from '../dist/adapters/langchain/index.js';
import { hookAgent } from '../dist/adapters/openai-agents/index.js';
import { HookEngine } from '../dist/index.js';

const TURNS = 4;
let PER_TURN = 1;
const callsPerRun = () => TURNS * PER_TURN;
const schema = z.object({ text: z.string() });

function noopEngine() {
  const engine = new HookEngine();
  for (let i = 0; i < 10; i++) engine.register({ name: `noop-${i}`, events: ['PreToolUse', 'PostToolUse'], handler: () => undefined });
  return engine;
}

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
function aiModel() {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const calls = step++ % (TURNS + 1) < TURNS;
      const content = calls
        ? Array.from({ length: PER_TURN }, (_, i) => ({
            type: 'tool-call',
            toolCallId: `c${step}-${i}`,
            toolName: 'echo',
            input: '{"text":"hi"}',
          }))
        : [{ type: 'text', text: 'done' }];
      return { content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

async function aiSdk(hooked) {
  const tools = { echo: aiTool({ inputSchema: schema, execute: async ({ text }) => text }) };
  const governed = hooked ? hookTools(noopEngine(), tools) : tools;
  // A model per run: the mock keeps every call it gets, and one shared for thousands of
  // runs grows the heap until garbage collection, not the agent, is what is measured.
  return () => generateText({ model: aiModel(), tools: governed, prompt: 'go', stopWhen: stepCountIs(TURNS + 2) });
}

/**
 * A Model that alternates CALLS echo calls and a final answer, forever (the agent is
 * wrapped once, as users do). A ScriptedModel per answer: it keeps every call it gets,
 * and one kept for thousands of runs grows the heap (see aiSdk).
 */
function openaiModel() {
  let step = 0;
  return {
    async getResponse(request) {
      const calls = Array.from({ length: PER_TURN }, (_, i) => functionCall('echo', { text: 'hi' }, { callId: `c${step}-${i}` }));
      const scripted = new ScriptedModel();
      scripted.enqueue(step++ % (TURNS + 1) < TURNS ? calls : [assistantMessage('done')]);
      return scripted.getResponse(request);
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
}

async function openaiAgents(hooked) {
  setTracingDisabled(true);
  const echo = openaiTool({ name: 'echo', description: 'Echo', parameters: schema, execute: async ({ text }) => text });
  const agent = new Agent({ name: 'bench', model: openaiModel(), tools: [echo] });
  const governed = hooked ? hookAgent(noopEngine(), agent) : agent;
  return () => run(governed, 'go');
}

class Scripted extends BaseChatModel {
  i = 0;
  _llmType() {
    return 'scripted';
  }
  bindTools() {
    return this;
  }
  async _generate() {
    const calls = this.i++ % (TURNS + 1) < TURNS;
    const tool_calls = calls
      ? Array.from({ length: PER_TURN }, (_, i) => ({ id: `c${this.i}-${i}`, name: 'echo', args: { text: 'hi' }, type: 'tool_call' }))
      : [];
    const message = new AIMessage({ content: calls ? '' : 'done', tool_calls });
    return { generations: [{ text: '', message }] };
  }
}

async function langchain(hooked) {
  const echo = lcTool(async ({ text }) => text, { name: 'echo', description: 'Echo', schema });
  const agent = createAgent({ model: new Scripted({}), tools: [echo], middleware: hooked ? [hookwiseMiddleware(noopEngine())] : [] });
  return () => agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
}

/** Each batch about this long: short enough that both batches of a pair meet the same load. */
const BATCH_MS = 5;
/** Time for the measured pairs of one row (both sides together); the warm-up before them takes WARMUP_MS. */
const ROW_MS = Number(process.env.BENCH_ROW_SECONDS ?? 4) * 1000;
const WARMUP_MS = 1500;

/**
 * Bare and hooked batches in adjacent pairs, in the order ABBA (so neither side is
 * always first), many short ones rather than a few long ones: a neighbour on the VM,
 * a major garbage collection or a phase of incremental marking (the AI SDK promotes
 * enough to run one every few hundred runs, 5-15 ms each) then lands on a few pairs
 * out of hundreds instead of on a tenth of them. Both sides are first warmed up to
 * steady state (optimised code, as in a long-running agent), and the batch size is
 * set from the warm-up so that a batch takes about BATCH_MS.
 *
 * Three readings of the same pairs: the median of the ratios (the target's measure),
 * their interquartile mean (the geometric mean of the middle half: every pair that no
 * outlier moved counts, not only the middle one), and each side's fastest batch
 * against the other's. A pause that lands on one batch moves its pair into a tail of
 * the ratios, whichever side it hit, so the first two measure the per-call cost
 * between such pauses; a cost hookwise adds steadily is in every pair and moves the
 * middle. So the two compare the sides' work between collections. Hookwise adds
 * less garbage than work (for the AI SDK at one call per turn: about 4% more
 * scavenges, where collection is about a quarter of the time), so with collection
 * counted the figure would be a little lower, not higher. (Checked by hand: with both
 * sides bare the median read between 0 and +3.2% over three runs; with a known
 * cost added to one side's tool it read 83-89% of that cost, taken against the work
 * between collections.)
 */
async function sideBySide(make) {
  const bare = await make(false);
  const hooked = await make(true);
  const runs = async (fn, n) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    return Number(process.hrtime.bigint() - t0);
  };
  // Warm-up: single runs of each side in turn; the batch size comes from the last ones (steady state).
  const warm = [];
  for (let spent = 0; spent < WARMUP_MS * 1e6; ) {
    const pair = (await runs(bare, 1)) + (await runs(hooked, 1));
    warm.push(pair / 2);
    spent += pair;
  }
  const steady = warm.slice(-Math.ceil(warm.length / 4)).sort((x, y) => x - y);
  const runMs = steady[steady.length >> 1] / 1e6;
  const batch = Math.max(1, Math.round(BATCH_MS / runMs));
  const pairs = Math.max(41, Math.round(ROW_MS / (2 * batch * runMs))) | 1;
  const ratios = [];
  let bestBare = Infinity;
  let bestHooked = Infinity;
  for (let r = 0; r < pairs; r++) {
    const [b, h] =
      r % 2 === 0 ? [await runs(bare, batch), await runs(hooked, batch)] : [await runs(hooked, batch), await runs(bare, batch)].reverse();
    bestBare = Math.min(bestBare, b);
    bestHooked = Math.min(bestHooked, h);
    ratios.push(h / b);
  }
  ratios.sort((x, y) => x - y);
  const perCall = batch * callsPerRun();
  const q1 = Math.floor(ratios.length / 4);
  const middle = ratios.slice(q1, ratios.length - q1);
  return {
    bareNs: bestBare / perCall,
    hookedNs: bestHooked / perCall,
    overhead: ratios[Math.floor(ratios.length / 2)] - 1,
    // Of the logarithms: a pause that doubles one side's batch moves its ratio to 2 or to 0.5, and those must weigh the same.
    interquartileMean: Math.exp(middle.reduce((sum, r) => sum + Math.log(r), 0) / middle.length) - 1,
    middleHalf: [middle[0] - 1, middle[middle.length - 1] - 1],
    fastestRatio: bestHooked / bestBare - 1,
    pairs,
    batch,
  };
}

/**
 * One tool call per model turn (the usual agent loop: the target's measure), and
 * ten per turn (the framework's fixed cost per turn shared by ten calls: the worst
 * case for an adapter, whose cost is all per call).
 */
export async function benchAdapters() {
  const rows = [];
  for (const perTurn of [1, 10]) {
    PER_TURN = perTurn;
    for (const [name, make] of [
      ['ai-sdk (ai 6 generateText, MockLanguageModelV3)', aiSdk],
      ['openai-agents (@openai/agents run, ScriptedModel)', openaiAgents],
      ['langchain (createAgent, scripted chat model)', langchain],
    ]) {
      const load = loadavg()[0];
      const measured = await sideBySide(make);
      rows.push({ name: `${name}, ${perTurn} call${perTurn > 1 ? 's' : ''} per turn`, ...measured, load: [load, loadavg()[0]] });
    }
  }
  return rows;
}

const percent = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** One line per row: every reading, the pairs behind them and the load average around them. */
export function describeRow(r) {
  return (
    `${r.name}: bare ${(r.bareNs / 1e3).toFixed(1)} µs/tool call, hooked ${(r.hookedNs / 1e3).toFixed(1)} µs (fastest batches); ` +
    `median ${percent(r.overhead)}, interquartile mean ${percent(r.interquartileMean)} (middle half of pairs ${percent(r.middleHalf[0])} to ${percent(r.middleHalf[1])}), ` +
    `fastest against fastest ${percent(r.fastestRatio)}; ${r.pairs} pairs of ${r.batch} run${r.batch > 1 ? 's' : ''}, load ${r.load.map((l) => l.toFixed(2)).join(' -> ')}`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchAdapters()) console.log(describeRow(r));
}
