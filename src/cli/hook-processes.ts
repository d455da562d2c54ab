/**
 * The command hooks' processes still running in this process
 * (src/handlers/containment.ts, docs/security.md#containment), reached through a
 * global the handlers set when they load: a call whose config runs no command hook
 * never loads them.
 */
interface HookProcesses {
  killAllHookProcesses(): void;
  hookProcessesEnded(boundMs: number): Promise<void>;
}

/** A timed-out hook gets SIGTERM, then SIGKILL after its grace (500 ms by default): wait a little longer than that. */
const GRACE_BOUND_MS = 1500;

const registry = () => (globalThis as Record<symbol, unknown>)[Symbol.for('hookwise.hookProcesses')] as HookProcesses | undefined;

/** SIGKILL them all: for exits that skip the 'exit' event (the watchdog's, the resident's fatal end). */
export function killHookProcesses(): void {
  registry()?.killAllHookProcesses();
}

/** Resolves once they have all ended (or the grace bound passed; the exit then kills what is left). */
export function hookProcessesEnded(): Promise<void> {
  return registry()?.hookProcessesEnded(GRACE_BOUND_MS) ?? Promise.resolve();
}
