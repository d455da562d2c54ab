import { andThen } from './and-then.js';
import { randomUUID } from 'node:crypto';
import type { ApprovalStore } from '../../approvals/types.js';
import type { AuditSink } from '../../audit/types.js';
import type { HookEngine } from '../../core/engine.js';
import type { HookInput } from '../../core/input.js';
import type { Outcome } from '../../core/outcome.js';
import { askApproval, permissionPrompt } from '../../approvals/ask.js';
import { AuditCoverage, type CoverageSink, type ToolExecution } from './coverage.js';

/** Options every adapter takes. */
export interface AdapterOptions {
  /** The session every fire belongs to. Default: a new id per wrap. */
  sessionId?: string;
  /** The `cwd` hooks see. Default: `process.cwd()`. */
  cwd?: string;
  /** Record every tool execution, with the PreToolUse outcome that allowed it, in this audit store. */
  audit?: AuditSink;
  /** Also (or instead) report executions here, e.g. a `MemoryCoverage`. */
  coverage?: CoverageSink;
  /**
   * Who answers an `ask`. Resolves true to run the tool. Without one, the framework's
   * own approval is used where it has one; where it has none, the tool does not run.
   */
  approve?: Approver;
  /**
   * Durable human approval (docs/approvals.md): an `ask` becomes a pending record in
   * this store and the call waits until a person answers it (CLI, serve's page, a
   * program) or it expires. Takes precedence over `approve` and the framework's own approval.
   */
  approvals?: ApprovalStore;
  /** The tenant approval records belong to. Default `default`. */
  tenant?: string;
  /** How long an approval waits for an answer (default 10 minutes), and what its expiry answers (default `deny`). */
  approvalExpiry?: { afterMs?: number; onExpiry?: 'approve' | 'deny' };
}

export interface ApprovalRequest {
  toolName: string;
  toolInput: Record<string, unknown>;
  toolUseId: string;
  reason: string | null;
  sessionId: string;
}
export type Approver = (request: ApprovalRequest) => boolean | Promise<boolean>;

export interface ToolCallInfo {
  name: string;
  input: Record<string, unknown>;
  id: string;
}

/** Checks a rewritten input against the tool's schema: the parsed value, or why not. */
export type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };
export type InputValidator = (input: Record<string, unknown>) => Checked | Promise<Checked>;

/** What to do with one tool call, read from the whole PreToolUse outcome. */
export type Plan =
  /** `approvalId`: the durable approval that let it run. */
  | { action: 'run'; input: Record<string, unknown>; pre: Outcome; approvedBy: ToolExecution['approvedBy']; approvalId?: string }
  | { action: 'deny'; message: string; pre: Outcome }
  | { action: 'ask'; input: Record<string, unknown>; pre: Outcome; reason: string | null }
  | { action: 'stop'; message: string; pre: Outcome };

/** No extra lines: what almost every call has, so not a new array each time. */
const NO_EXTRA: readonly string[] = Object.freeze([]);

export interface AfterTool {
  /** What the model sees: the tool's own output, or a hook's replacement. */
  output: unknown;
  replaced: boolean;
  /** Text hooks added (additionalContext, a PostToolUse block's reason). */
  extra: readonly string[];
  /** Set when a hook stopped the agent. */
  stop: string | null;
}

/**
 * Tool calls through the policy, the same way for every framework: PreToolUse
 * (deny, stop, rewrite, ask), PermissionRequest for an ask, the coverage record,
 * then exactly one PostToolUse or PostToolUseFailure per executed call. Adapters
 * map the Plan and the AfterTool onto their framework and nothing else.
 */
export class ToolGate {
  readonly sessionId: string;
  readonly cwd: string;
  private readonly sinks: CoverageSink[];
  /** Calls a PreToolUse stop let run (Claude Code's `continue: false`): the run ends after them. */
  private readonly stopAfter = new Map<string, string>();
  /** What an approver's note tells the model about a call, added beside its result. */
  private readonly approvalNotes = new Map<string, string>();

  /** Every fire's options: the same for the gate's life, so not rebuilt per fire. */
  private readonly fireOptions: { sessionId: string; cwd: string };

  constructor(
    readonly engine: HookEngine,
    readonly host: string,
    readonly options: AdapterOptions = {},
  ) {
    this.sessionId = options.sessionId ?? randomUUID();
    this.cwd = options.cwd ?? process.cwd();
    this.fireOptions = { sessionId: this.sessionId, cwd: this.cwd };
    this.sinks = [];
    if (options.audit) this.sinks.push(new AuditCoverage(options.audit, engine));
    if (options.coverage) this.sinks.push(options.coverage);
  }

  /** Fire any event in this gate's session. */
  fire(event: string, fields: Record<string, unknown> = {}): Promise<Outcome> {
    // With the common fields already there, the engine does not copy the input.
    const input: HookInput = { hook_event_name: event, session_id: this.sessionId, cwd: this.cwd, ...fields };
    return this.engine.fire(event, input, this.fireOptions);
  }

  /**
   * fire(), but an Outcome the hooks reached synchronously comes back as it is. The
   * tool-call path uses it: a promise and an `await` per fire cost more than no-op
   * hooks do in a framework that tracks async context.
   */
  fireMaybeSync(event: string, fields: Record<string, unknown> = {}): Outcome | Promise<Outcome> {
    const input: HookInput = { hook_event_name: event, session_id: this.sessionId, cwd: this.cwd, ...fields };
    return this.engine.fireMaybeSync(event, input, this.fireOptions);
  }

  /**
   * A tool event's input: the gate's fields, the host's `fields`, then the call's own,
   * which no host field overrides. Without host fields (the AI SDK's every call) it is
   * one literal: a spread per call costs more than the no-op hooks it feeds.
   */
  private toolEventInput(
    event: string,
    call: ToolCallInfo,
    toolInput: Record<string, unknown>,
    fields?: Record<string, unknown>,
  ): HookInput {
    if (fields === undefined)
      return {
        hook_event_name: event,
        session_id: this.sessionId,
        cwd: this.cwd,
        tool_name: call.name,
        tool_input: toolInput,
        tool_use_id: call.id,
      };
    return {
      hook_event_name: event,
      session_id: this.sessionId,
      cwd: this.cwd,
      ...fields,
      tool_name: call.name,
      tool_input: toolInput,
      tool_use_id: call.id,
    };
  }

  /** Whether firing `event` would be noticed (a hook, an outcome listener): the adapters skip unnoticed model fires. */
  observes(event: string): boolean {
    return this.engine.observes(event);
  }

  /**
   * PreToolUse, then PermissionRequest if the policy asked. Synchronous when the hooks
   * are and the policy neither rewrote nor asked (the usual call).
   */
  before(call: ToolCallInfo, validate?: InputValidator, fields?: Record<string, unknown>): Plan | Promise<Plan> {
    const input = this.toolEventInput('PreToolUse', call, call.input, fields);
    const pre = this.engine.fireMaybeSync('PreToolUse', input, this.fireOptions);
    return pre instanceof Promise ? pre.then((o) => this.planFrom(call, o, validate, fields)) : this.planFrom(call, pre, validate, fields);
  }

  private planFrom(call: ToolCallInfo, pre: Outcome, validate?: InputValidator, fields?: Record<string, unknown>): Plan | Promise<Plan> {
    // A stop that refuses (hookwise's stop()) ends the run now; one that does not (`continue: false`) after this call.
    if (pre.stop && pre.blocked) return { action: 'stop', message: stopText(pre), pre };
    if (pre.stop) this.stopAfter.set(call.id, stopText(pre));
    if (pre.blocked) return { action: 'deny', message: denyText(pre, call.name), pre };
    if (!pre.updatedInput && pre.decision !== 'ask' && pre.decision !== 'defer')
      return { action: 'run', input: call.input, pre, approvedBy: 'policy' };
    return this.rewriteOrAsk(call, pre, validate, fields);
  }

  /** A PreToolUse that rewrote the input (validated first) or asked (PermissionRequest). */
  private async rewriteOrAsk(call: ToolCallInfo, pre: Outcome, validate?: InputValidator, fields?: Record<string, unknown>): Promise<Plan> {
    let input = call.input;
    if (pre.updatedInput) {
      const checked = validate ? await validate(pre.updatedInput) : { ok: true as const, value: pre.updatedInput };
      if (!checked.ok) {
        return {
          action: 'deny',
          message: `A PreToolUse hook rewrote the input of ${call.name} into invalid input (${checked.message}). The tool was not run.`,
          pre,
        };
      }
      input = checked.value;
    }
    if (pre.decision !== 'ask' && pre.decision !== 'defer') return { action: 'run', input, pre, approvedBy: 'policy' };

    const answer = await this.fire('PermissionRequest', {
      ...fields,
      tool_name: call.name,
      tool_input: input,
      tool_use_id: call.id,
      permission_suggestions: [],
      reason: pre.reason,
    });
    if (answer.stop) return { action: 'stop', message: stopText(answer), pre };
    if (answer.blocked || answer.decision === 'deny') return { action: 'deny', message: denyText(answer, call.name), pre };
    if (answer.decision === 'allow') {
      if (!answer.updatedInput) return { action: 'run', input, pre, approvedBy: 'hook' };
      const checked = validate ? await validate(answer.updatedInput) : { ok: true as const, value: answer.updatedInput };
      if (!checked.ok)
        return {
          action: 'deny',
          message: `A PermissionRequest hook rewrote the input of ${call.name} into invalid input (${checked.message}). The tool was not run.`,
          pre,
        };
      return { action: 'run', input: checked.value, pre, approvedBy: 'hook' };
    }
    return { action: 'ask', input, pre, reason: pre.reason };
  }

  /** Whether this gate answers an ask itself (an approvals store or an approver), rather than the framework's own approval. */
  get answersAsks(): boolean {
    return this.options.approvals !== undefined || this.options.approve !== undefined;
  }

  /** An ask answered by the approvals store, else the approver option; with nobody to ask, the tool does not run. */
  async resolveAsk(call: ToolCallInfo, plan: Plan & { action: 'ask' }, approver = this.options.approve): Promise<Plan> {
    if (this.options.approvals) return this.askDurably(this.options.approvals, call, plan);
    const why = plan.reason ? ` (${plan.reason})` : '';
    if (!approver) {
      return {
        action: 'deny',
        message: `Permission needed to use ${call.name}${why}, and no one can approve it. The tool was not run.`,
        pre: plan.pre,
      };
    }
    const approved = await approver({
      toolName: call.name,
      toolInput: plan.input,
      toolUseId: call.id,
      reason: plan.reason,
      sessionId: this.sessionId,
    });
    if (approved === true) return { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approver' };
    return { action: 'deny', message: `The user denied permission to use ${call.name}${why}. The tool was not run.`, pre: plan.pre };
  }

  /**
   * The durable ask: a standing session permission, or a pending record answered
   * from any channel while the call waits (Notification first). The approver's note
   * reaches the model: beside the result, or as the refusal's reason. A store that
   * fails refuses the call.
   */
  private async askDurably(store: ApprovalStore, call: ToolCallInfo, plan: Plan & { action: 'ask' }): Promise<Plan> {
    const why = plan.reason ? ` (${plan.reason})` : '';
    let verdict: Awaited<ReturnType<typeof askApproval>>;
    try {
      verdict = await askApproval(
        store,
        {
          ...(this.options.tenant === undefined ? {} : { tenant: this.options.tenant }),
          sessionId: this.sessionId,
          tool: call.name,
          input: plan.input,
          toolUseId: call.id,
          // A call without an id (a handoff) cannot be found again: its own key.
          key: `${this.sessionId}:${call.id || randomUUID()}`,
          pre: plan.pre,
          ...(this.options.approvalExpiry === undefined ? {} : { expiry: this.options.approvalExpiry }),
        },
        {
          onPending: async (approval) => {
            await this.fire('Notification', permissionPrompt(call, plan.reason, approval));
          },
        },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        action: 'deny',
        message: `Permission needed to use ${call.name}${why}, and the approval store failed (${message}). The tool was not run.`,
        pre: plan.pre,
      };
    }
    if (!verdict.granted) return { action: 'deny', message: `Permission denied: ${verdict.reason}. The tool was not run.`, pre: plan.pre };
    if (verdict.context && call.id) this.approvalNotes.set(call.id, verdict.context);
    return { action: 'run', input: plan.input, pre: plan.pre, approvedBy: 'approval', approvalId: verdict.approval.id };
  }

  /**
   * Records the execution about to happen. Returns why not when it cannot be
   * recorded: an unrecordable tool call does not run.
   */
  admit(call: ToolCallInfo, plan: Plan & { action: 'run' }): string | null | Promise<string | null> {
    return this.sinks.length === 0 ? null : this.record(call, plan);
  }

  private async record(call: ToolCallInfo, plan: Plan & { action: 'run' }): Promise<string | null> {
    const execution: ToolExecution = {
      host: this.host,
      ts: new Date().toISOString(),
      sessionId: this.sessionId,
      toolName: call.name,
      toolUseId: call.id,
      toolInput: plan.input,
      allowedBy: plan.pre,
      approvedBy: plan.approvedBy,
      ...(plan.approvalId === undefined ? {} : { approvalId: plan.approvalId }),
    };
    try {
      for (const sink of this.sinks) await sink.toolExecuted(execution);
      return null;
    } catch (error) {
      return `The audit trail could not record this ${call.name} call (${error instanceof Error ? error.message : String(error)}). The tool was not run.`;
    }
  }

  /** PostToolUse for a call that returned; synchronous when the hooks are. */
  after(
    call: ToolCallInfo,
    input: Record<string, unknown>,
    output: unknown,
    fields?: Record<string, unknown>,
  ): AfterTool | Promise<AfterTool> {
    const hookInput = this.toolEventInput('PostToolUse', call, input, fields);
    hookInput.tool_response = output;
    const post = this.engine.fireMaybeSync('PostToolUse', hookInput, this.fireOptions);
    return post instanceof Promise ? post.then((o) => this.afterFrom(call, output, o)) : this.afterFrom(call, output, post);
  }

  private afterFrom(call: ToolCallInfo, output: unknown, post: Outcome): AfterTool {
    const replaced = post.updatedOutput !== null && post.updatedOutput !== undefined;
    let extra = this.takeApprovalNote(call);
    if (post.blocked && !post.stop && post.reason) extra = [...extra, `PostToolUse hook "${decidingHook(post)}" says: ${post.reason}`];
    if (post.additionalContext) extra = [...extra, post.additionalContext];
    return { output: replaced ? post.updatedOutput : output, replaced, extra, stop: post.stop ? stopText(post) : this.pendingStop(call) };
  }

  /** PostToolUseFailure for a call that threw; returns the stop reason if a hook stopped the agent. */
  failed(
    call: ToolCallInfo,
    input: Record<string, unknown>,
    error: unknown,
    fields?: Record<string, unknown>,
  ): { stop: string | null; extra: readonly string[] } | Promise<{ stop: string | null; extra: readonly string[] }> {
    const hookInput = this.toolEventInput('PostToolUseFailure', call, input, fields);
    hookInput.error = error instanceof Error ? error.message : String(error);
    hookInput.is_interrupt = false;
    const failure = this.engine.fireMaybeSync('PostToolUseFailure', hookInput, this.fireOptions);
    return andThen(failure, (o) => this.failedFrom(call, o));
  }

  private failedFrom(call: ToolCallInfo, failure: Outcome): { stop: string | null; extra: readonly string[] } {
    const note = this.takeApprovalNote(call);
    const extra = failure.additionalContext ? [...note, failure.additionalContext] : note;
    return { stop: failure.stop ? stopText(failure) : this.pendingStop(call), extra };
  }

  /** The approver's note as the start of a call's extra lines; shared and frozen when there is none (the usual call). */
  private takeApprovalNote(call: ToolCallInfo): readonly string[] {
    if (this.approvalNotes.size === 0) return NO_EXTRA;
    const note = this.approvalNotes.get(call.id);
    this.approvalNotes.delete(call.id);
    return note === undefined ? NO_EXTRA : [note];
  }

  private pendingStop(call: ToolCallInfo): string | null {
    if (this.stopAfter.size === 0) return null;
    const reason = this.stopAfter.get(call.id) ?? null;
    this.stopAfter.delete(call.id);
    return reason;
  }
}

/** The hook that decided a blocked outcome. */
export function decidingHook(outcome: Outcome): string {
  const deciding = outcome.hooks.find((h) => h.result === 'deny' || h.result === 'block' || h.result === 'stop');
  if (deciding) return deciding.name;
  return outcome.hooks.find((h) => h.status === 'error' || h.status === 'timeout')?.name ?? outcome.hooks.at(-1)?.name ?? '(unknown)';
}

/** What the model reads for a denied call: the hook's reason, as Claude Code gives it. */
export function denyText(outcome: Outcome, toolName: string): string {
  return outcome.reason ?? `PreToolUse hook "${decidingHook(outcome)}" denied ${toolName}. The tool was not run.`;
}

export function stopText(outcome: Outcome): string {
  return outcome.stopReason ?? outcome.reason ?? `hook "${decidingHook(outcome)}" stopped the agent`;
}

/** Model-facing text with the extra lines hooks added (only ever appended to text). */
export function withExtra(output: unknown, extra: readonly string[]): unknown {
  if (extra.length === 0 || typeof output !== 'string') return output;
  return [output, ...extra].join('\n\n');
}
