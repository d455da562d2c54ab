import type { HookEngine } from '../core/engine.js';
import { DEFAULT_TIMEOUT_MS } from '../core/spec.js';
import type { Watchdog } from './watchdog.js';

/**
 * A hook stuck in synchronous code (`for (;;) {}`) is stopped by its own timeout, not
 * the process's whole stall timeout (docs/claude-code.md#failures): the engine's timer
 * cannot fire while the main thread is stuck, so the watchdog thread enforces it.
 *
 * While hooks run, the watchdog's limit is the longest `timeoutMs` among them (a hook
 * that merely waits is never cut short by a shorter one beside it), never under
 * MIN_HOOK_STALL_MS of CPU time (on a loaded machine a legitimate second of work
 * must not be taken for a stuck hook) and never over the stall timeout.
 */
export const MIN_HOOK_STALL_MS = 1000;

export interface HookDeadlines {
  /** The hook (or hooks) running now, for the failure's reason; undefined between hooks. */
  running(): { names: string[]; timeoutMs: number; limitMs: number } | undefined;
}

export function followHookTimeouts(engine: HookEngine, watchdog: Watchdog): HookDeadlines {
  const inFlight: Array<{ name: string; timeoutMs: number }> = [];
  const longest = () => Math.max(...inFlight.map((h) => h.timeoutMs));
  const update = () => watchdog.tighten(inFlight.length === 0 ? undefined : Math.max(MIN_HOOK_STALL_MS, longest()));
  engine.on('hookStart', ({ name }) => {
    inFlight.push({ name, timeoutMs: engine.getHook(name)?.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    update();
  });
  engine.on('hookEnd', ({ name }) => {
    const at = inFlight.findIndex((h) => h.name === name);
    if (at >= 0) inFlight.splice(at, 1);
    update();
  });
  return {
    running: () =>
      inFlight.length === 0
        ? undefined
        : { names: inFlight.map((h) => h.name), timeoutMs: longest(), limitMs: Math.max(MIN_HOOK_STALL_MS, longest()) },
  };
}

/**
 * The failure's reason for a main thread stopped after `ms` of CPU time: the hook
 * that was running, and its timeoutMs when that (not the stall timeout) was the limit.
 */
export function stallReason(ms: number, deadlines: HookDeadlines | undefined, stallMs: number): string {
  const running = deadlines?.running();
  if (!running) return `a hook or the config ran synchronously for ${ms} ms of CPU time without yielding; stopped`;
  const which = running.names.length === 1 ? `hook ${running.names[0]}` : `hooks ${running.names.join(', ')}`;
  const own = ms < stallMs ? ` (timeoutMs ${running.timeoutMs}; at least ${MIN_HOOK_STALL_MS} ms of CPU time is allowed)` : '';
  return `${which} timed out: ran synchronously for ${ms} ms of CPU time without yielding${own}; stopped`;
}

/**
 * The hooks stopped stuck, as the Outcome's hook entries of a timed-out hook read
 * (status `timeout`), for the audit record the stopped call still leaves.
 */
export function stalledHooks(ms: number, deadlines: HookDeadlines | undefined, reason: string) {
  return (deadlines?.running()?.names ?? []).map((name) => ({
    name,
    status: 'timeout' as const,
    result: null,
    durationMs: ms,
    error: reason,
  }));
}
