import type { Outcome } from '../core/outcome.js';
import type { HookSpec } from '../core/spec.js';
import { decidingHook } from '../policy-test/deciding-hook.js';
import { loadPolicy } from '../policy-test/load-policy.js';

/** One hook of the event, in run order, and what became of it in this fire. */
export interface ExplainedHook {
  name: string;
  source: string | null;
  /** Whether its matcher selected it for this input. */
  matched: boolean;
  status: string | null;
  result: string | null;
  /** What the handler returned (its verdict before the merge), when it ran. */
  returned: unknown;
  durationMs: number | null;
  error: string | null;
  /** What a built-in guard looked at in the input. */
  lookedAt: string | null;
  /** Facts the hook reported (sandboxed, contained, truncated, ...). */
  notes: Record<string, unknown>;
}

export interface Explanation {
  event: string;
  sources: Array<{ file: string; kind: string }>;
  hooks: ExplainedHook[];
  outcome: Outcome;
  decidedBy: string | null;
  /** How the Outcome was merged, one line per rule that applied. */
  merge: string[];
}

/** What each built-in guard reads of a PreToolUse input. */
const GUARD_READS: Array<[RegExp, string]> = [
  [/^guard:shell/, 'tool_input.command, parsed as bash: every simple command, its paths and the workspace'],
  [/^guard:path/, "the tool's file paths (file_path, path, notebook_path, Glob/Grep patterns), resolved on disk"],
  [/^guard:secret/, 'every string of tool_input (keys too), scanned for secret formats'],
  [/^guard:budget/, "the session's counters"],
];

const RECORD_FIELDS = new Set(['name', 'status', 'result', 'durationMs', 'error']);

/** Load the policy, fire the event once with every handler watched, and say how the Outcome came about. */
export async function explain(options: {
  files?: string[];
  cwd: string;
  event: string;
  input: Record<string, unknown>;
}): Promise<Explanation> {
  const returned = new Map<string, unknown>();
  const watch = (spec: HookSpec): HookSpec => ({
    ...spec,
    handler: async (input, ctx) => {
      const value = await spec.handler(input, ctx);
      returned.set(spec.name, value ?? null);
      return value;
    },
  });
  const { engine, config } = await loadPolicy({ files: options.files, cwd: options.cwd, transform: watch });
  const inRunOrder = engine.hooks(options.event);
  const outcome = await engine.fire(options.event, options.input, {
    projectDir: typeof options.input.cwd === 'string' ? options.input.cwd : options.cwd,
    dryRun: true,
  });
  await engine.drain();
  const records = new Map(outcome.hooks.map((r) => [r.name, r]));
  const hooks = inRunOrder.map((spec): ExplainedHook => {
    const r = records.get(spec.name);
    const notes = Object.fromEntries(Object.entries(r ?? {}).filter(([k]) => !RECORD_FIELDS.has(k)));
    return {
      name: spec.name,
      source: spec.source ?? null,
      matched: r !== undefined,
      status: r?.status ?? null,
      result: r?.result ?? null,
      returned: returned.get(spec.name),
      durationMs: r?.durationMs ?? null,
      error: r?.error ?? null,
      lookedAt: GUARD_READS.find(([p]) => p.test(spec.name))?.[1] ?? null,
      notes,
    };
  });
  return {
    event: outcome.event,
    sources: config.sources.map((s) => ({ file: s.file, kind: s.kind })),
    hooks,
    outcome,
    decidedBy: decidingHook(outcome),
    merge: mergeNotes(outcome, hooks),
  };
}

function mergeNotes(outcome: Outcome, hooks: ExplainedHook[]): string[] {
  const ran = hooks.filter((h) => h.matched && h.status !== 'skipped');
  const notes: string[] = [];
  if (ran.length === 0) return ['no hook matched: the empty Outcome (nothing decided, nothing blocked)'];
  const decided = ran.filter((h) => h.result && ['allow', 'ask', 'defer', 'deny'].includes(h.result));
  if (decided.length)
    notes.push(
      `decision ${outcome.decision}: the strongest of ${decided.map((h) => `${h.name}=${h.result}`).join(', ')} (allow < ask < defer < deny)`,
    );
  if (outcome.blocked) notes.push(`blocked, reason from the first hook that refused (run order): ${JSON.stringify(outcome.reason)}`);
  const failed = ran.filter((h) => h.status === 'error' || h.status === 'timeout');
  for (const h of failed) notes.push(`${h.name} failed (${h.status}: ${h.error}); its onError policy applied`);
  if (outcome.updatedInput)
    notes.push(
      `input rewritten by ${
        ran
          .filter((h) => h.result === 'modify')
          .map((h) => h.name)
          .join(', ') || 'a last handler'
      } (tool events: the last rewrite wins)`,
    );
  if (outcome.additionalContext) notes.push("additional context: every hook's, joined in run order");
  if (ran.some((h) => h.result === 'skip')) notes.push('a hook answered skip: the hooks after it did not run');
  if (notes.length === 0) notes.push('no hook decided: the call goes ahead as the host would run it');
  return notes;
}
