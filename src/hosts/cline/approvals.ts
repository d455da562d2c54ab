import { createHash } from 'node:crypto';
import { canonicalJson } from '../../audit/canonical-json.js';
import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { TaskState } from './task-state.js';

/**
 * `ask` in a headless Cline run, which has nobody to ask, and whose hook cannot wait for
 * a person (Cline gives a hook 120 s, hookwise answers within 20 s). With durable
 * approvals on (`HOOKWISE_APPROVALS=1`; the store is the audit database,
 * `$HOOKWISE_AUDIT_DB`, else the project's as `defaultAuditPath` finds it) an ask becomes a pending
 * approval (docs/approvals.md) and the call is refused with its id and the command that
 * answers it. The same call made again (same tool and input, in the same project, in this
 * task or a later run) finds the same record: approved, it runs; denied or expired, it is
 * refused with that answer; still pending, it is refused again with the id. One answer
 * lets one call through (a standing `--session` approval covers the rest of the task):
 * the next identical call asks anew. Without approvals an ask is refused, saying a person
 * is needed (../pre-tool-use.ts). docs/agents.md (Cline).
 */
export const APPROVALS_ENV = 'HOOKWISE_APPROVALS';

export const approvalsOn = (env: NodeJS.ProcessEnv = process.env): boolean => env[APPROVALS_ENV] === '1';

/** Does this Outcome ask for a person? */
export const asks = (o: Outcome): boolean => !o.blocked && !o.stop && (o.decision === 'ask' || o.decision === 'defer');

/** Calls that race to use one answer: past this many, the call is asked anew. */
const ATTEMPTS = 3;

/** The asking Outcome answered through the durable store: an allow (the call runs) or a deny naming what to do. */
export async function askDurably(o: Outcome, input: HookInput, projectDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  const tool = String(input.tool_name);
  const toolInput = input.tool_input ?? {};
  const why = o.reason ?? 'a hookwise hook asks for a person';
  const sessionId = typeof input.session_id === 'string' ? input.session_id : 'cline';
  const [{ openApprovals, verdictOf }, { defaultAuditPath }] = await Promise.all([
    import('../../approvals/index.js'),
    import('../../audit/paths.js'),
  ]);
  const target = defaultAuditPath(projectDir, env);
  let store: Awaited<ReturnType<typeof openApprovals>> | undefined;
  try {
    store = await openApprovals(target);
    const standing = await store.standing({ sessionId, tool, input: toolInput });
    if (standing) return allow(o, `${why} (approved for this task: approval ${standing.id})`, null);
    // The uses of each answer are marked beside the task state, per project and call.
    const used = TaskState.of(`approvals:${projectDir}`);
    const call = createHash('sha256')
      .update(canonicalJson({ tool, input: toolInput }))
      .digest('hex')
      .slice(0, 32);
    for (let attempt = 0, n = firstUnused(used, call); attempt < ATTEMPTS; attempt++, n++) {
      const approval = await store.request({
        sessionId,
        event: 'PreToolUse',
        tool,
        input: toolInput,
        ...(typeof input.tool_use_id === 'string' && { toolUseId: input.tool_use_id }),
        hook: o.hooks.find((h) => h.result === 'ask' || h.result === 'defer')?.name ?? null,
        reason: o.reason,
        key: `cline:${projectDir}:${call}:${n}`,
      });
      if (approval.state === 'pending') return deny(o, pendingReason(why, approval.id));
      // Answered: this call uses the answer, unless a concurrent one did first.
      if (!used.claim(`${call}.${n}.used`)) continue;
      const verdict = verdictOf(approval);
      if (!verdict.granted) return deny(o, `${why}: ${verdict.reason}; the call was not run`);
      return allow(o, `${why} (approved: approval ${approval.id})`, verdict.context);
    }
    return deny(o, `${why}: a person must approve this call, and its approvals were all used by other calls; make the call again`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return deny(o, `${why}: a person must approve this call, and the approval store ${target} failed (${message}); refused`);
  } finally {
    await store?.close().catch(() => {});
  }
}

export function pendingReason(why: string, id: string): string {
  return (
    `${why}: a person must approve this call. It is waiting as approval ${id}: ` +
    `\`hookwise approvals approve ${id}\` (or \`hookwise approvals deny ${id}\`) answers it, ` +
    `and the same call made again then runs (or is refused). Cline cannot wait for a person, so it is refused for now`
  );
}

function firstUnused(used: TaskState, call: string): number {
  let n = 0;
  while (used.has(`${call}.${n}.used`)) n++;
  return n;
}

const deny = (o: Outcome, reason: string): Outcome => ({ ...o, decision: 'deny', reason });

function allow(o: Outcome, reason: string, note: string | null): Outcome {
  const context = [o.additionalContext, note].filter((c): c is string => !!c).join('\n');
  return { ...o, decision: 'allow', reason, additionalContext: context || null };
}
