import type { Outcome } from '../core/outcome.js';

/** The hook that decided a blocked outcome, for messages such as "hook X denied ...". */
export function decidingHook(outcome: Outcome): string {
  const deciding = outcome.hooks.find((h) => h.result === 'deny' || h.result === 'block' || h.result === 'stop');
  if (deciding) return deciding.name;
  const failed = outcome.hooks.find(
    (h) => (h.status === 'error' || h.status === 'timeout') && outcome.reason?.startsWith(`hook ${h.name} failed`),
  );
  if (failed) return failed.name;
  const retried = outcome.hooks.find((h) => h.result === 'retry');
  if (retried) return retried.name;
  return outcome.hooks.find((h) => h.status !== 'skipped')?.name ?? '(unknown)';
}

/** The last hook that rewrote the input (modify, or an allow carrying updatedInput). */
export function rewritingHook(outcome: Outcome): string {
  const modifying = outcome.hooks.filter((h) => h.result === 'modify' || h.result === 'allow');
  return modifying.at(-1)?.name ?? outcome.hooks.at(-1)?.name ?? '(unknown)';
}

/** What the model reads for a denied call: the hook's reason, as Claude Code gives it. */
export function denyText(outcome: Outcome, toolName: string): string {
  return outcome.reason ?? `${outcome.event} hook "${decidingHook(outcome)}" denied ${toolName}. The tool was not run.`;
}

export function stopText(outcome: Outcome): string {
  return outcome.stopReason ?? outcome.reason ?? `hook "${decidingHook(outcome)}" stopped the agent`;
}

/** Model-facing text with the extra lines hooks added (only ever appended to text). */
export function withExtra(output: unknown, extra: readonly string[]): unknown {
  if (extra.length === 0 || typeof output !== 'string') return output;
  return [output, ...extra].join('\n\n');
}
