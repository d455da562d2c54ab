import { EventEmitter } from 'node:events';
import Emittery from 'emittery';
import { createHooks } from 'hookable';
import tapable from 'tapable';
import { allow, HookEngine } from '../dist/index.js';
import { measure } from './harness.mjs';

const input = { hook_event_name: 'PreToolUse', session_id: 'bench', cwd: '/tmp', tool_name: 'Bash', tool_input: { command: 'ls' } };

/** Three handlers that do the same tiny amount of work in every system. */
function threeHandlers() {
  let n = 0;
  return [() => { n++; }, (i) => { if (i.tool_name === 'Nope') n--; }, () => { n++; return allow(); }];
}

/** fire() with 0 hooks, 1,000 unrelated hooks, 3 matching hooks; beside EventEmitter, tapable, hookable, emittery. */
export async function benchEngine() {
  const rows = [];
  const empty = new HookEngine();
  rows.push({ name: 'hookwise fire(), 0 hooks', ns: await measure(() => empty.fire('PreToolUse', input)) });

  const crowded = new HookEngine();
  for (let i = 0; i < 1000; i++) crowded.register({ name: `other-${i}`, events: 'PreToolUse', matcher: `Tool${i}`, handler: () => allow() });
  rows.push({ name: 'hookwise fire(), 1,000 hooks for other tools', ns: await measure(() => crowded.fire('PreToolUse', input)) });

  const three = new HookEngine();
  threeHandlers().forEach((handler, i) => three.register({ name: `h${i}`, events: 'PreToolUse', matcher: 'Bash', handler }));
  rows.push({ name: 'hookwise fire(), 3 matching function hooks', ns: await measure(() => three.fire('PreToolUse', input)) });

  const emitter = new EventEmitter();
  threeHandlers().forEach((h) => emitter.on('PreToolUse', h));
  rows.push({ name: 'node EventEmitter emit(), same 3 handlers', ns: await measure(() => emitter.emit('PreToolUse', input)) });

  const series = new tapable.AsyncSeriesHook(['input']);
  threeHandlers().forEach((h, i) => series.tapPromise(`h${i}`, async (x) => { h(x); }));
  rows.push({ name: 'tapable AsyncSeriesHook.promise(), same 3 handlers', ns: await measure(() => series.promise(input)) });

  const hooks = createHooks();
  threeHandlers().forEach((h) => hooks.hook('PreToolUse', h));
  rows.push({ name: 'hookable callHook(), same 3 handlers', ns: await measure(() => hooks.callHook('PreToolUse', input)) });

  const emittery = new Emittery();
  threeHandlers().forEach((h) => emittery.on('PreToolUse', h));
  rows.push({ name: 'emittery emit(), same 3 handlers', ns: await measure(() => emittery.emit('PreToolUse', input)) });
  return rows;
}
