import { EventEmitter } from 'node:events';
import Emittery from 'emittery';
import { createHooks } from 'hookable';
import tapable from 'tapable';
import { allow, HookEngine } from '../dist/index.js';
import { measure } from './harness.mjs';

/** As a host that speaks Claude Code's format sends it. */
const wireInput = { hook_event_name: 'PreToolUse', session_id: 'bench', cwd: '/tmp', tool_name: 'Bash', tool_input: { command: 'ls' } };
/** As a direct engine user passes it: no hook_event_name, no session_id (the engine fills them in). */
const directInput = { tool_name: 'Bash', tool_input: { command: 'ls' } };

/** Three handlers that do the same tiny amount of work in every system. */
function threeHandlers() {
  // Written, never read: each handler does the same tiny work in every system.
  let _n = 0;
  return [
    () => {
      _n++;
    },
    (i) => {
      if (i.tool_name === 'Nope') _n--;
    },
    () => {
      _n++;
      return allow();
    },
  ];
}

function engineWith(count, matcherOf, { matchOne = false } = {}) {
  const engine = new HookEngine();
  for (let i = 0; i < count; i++)
    engine.register({ name: `h-${i}`, events: 'PreToolUse', matcher: matcherOf(i), handler: () => undefined });
  if (matchOne) engine.register({ name: 'the-one', events: 'PreToolUse', matcher: matcherOf('Bash'), handler: () => allow() });
  return engine;
}

/** exact names (`Tool7`) and regexes (`^mcp__s7__.*`), none matching or one matching, 0 to 10,000 hooks. */
export async function benchScale({ sizes = [0, 10, 100, 1000, 10000] } = {}) {
  const kinds = [
    ['exact', (i) => (i === 'Bash' ? 'Bash' : `Tool${i}`)],
    ['regex', (i) => (i === 'Bash' ? '^Ba.h$' : `^mcp__s${i}__.*`)],
  ];
  const rows = [];
  for (const [kind, matcherOf] of kinds) {
    for (const size of sizes) {
      for (const matchOne of [false, true]) {
        const engine = engineWith(size, matcherOf, { matchOne });
        const ns = await measure(() => engine.fire('PreToolUse', directInput), { batch: 5_000, budgetMs: 300, warmup: 2 });
        rows.push({ kind, size, matching: matchOne ? 'one' : 'none', ns });
      }
    }
  }
  return rows;
}

/** fire() with 0 hooks, 1,000 unrelated hooks, 3 matching hooks; beside EventEmitter, tapable, hookable, emittery. */
export async function benchEngine() {
  const rows = [];
  const empty = new HookEngine();
  rows.push({ name: 'hookwise fire(), 0 hooks', ns: await measure(() => empty.fire('PreToolUse', directInput)) });

  const crowded = new HookEngine();
  for (let i = 0; i < 1000; i++)
    crowded.register({ name: `other-${i}`, events: 'PreToolUse', matcher: `Tool${i}`, handler: () => allow() });
  rows.push({ name: 'hookwise fire(), 1,000 hooks for other tools', ns: await measure(() => crowded.fire('PreToolUse', directInput)) });

  const three = new HookEngine();
  threeHandlers().forEach((handler, i) => three.register({ name: `h${i}`, events: 'PreToolUse', matcher: 'Bash', handler }));
  rows.push({ name: 'hookwise fire(), 3 matching function hooks', ns: await measure(() => three.fire('PreToolUse', directInput)) });
  rows.push({
    name: 'hookwise fire(), 3 matching function hooks, Claude Code wire input',
    ns: await measure(() => three.fire('PreToolUse', wireInput)),
  });

  const emitter = new EventEmitter();
  threeHandlers().forEach((h) => emitter.on('PreToolUse', h));
  rows.push({ name: 'node EventEmitter emit(), same 3 handlers', ns: await measure(() => emitter.emit('PreToolUse', directInput)) });

  const series = new tapable.AsyncSeriesHook(['input']);
  threeHandlers().forEach((h, i) =>
    series.tapPromise(`h${i}`, async (x) => {
      h(x);
    }),
  );
  rows.push({ name: 'tapable AsyncSeriesHook.promise(), same 3 handlers', ns: await measure(() => series.promise(directInput)) });

  const hooks = createHooks();
  threeHandlers().forEach((h) => hooks.hook('PreToolUse', h));
  rows.push({ name: 'hookable callHook(), same 3 handlers', ns: await measure(() => hooks.callHook('PreToolUse', directInput)) });

  const emittery = new Emittery();
  threeHandlers().forEach((h) => emittery.on('PreToolUse', h));
  rows.push({ name: 'emittery emit(), same 3 handlers', ns: await measure(() => emittery.emit('PreToolUse', directInput)) });
  return rows;
}
