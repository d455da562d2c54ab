import { randomUUID } from 'node:crypto';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { andThen } from './and-then.js';
import { resolveAsk, type AskContext } from './ask.js';
import { AuditCoverage, type CoverageSink, type ToolExecution } from './coverage.js';
import type { AdapterOptions, Approver, GateHost } from './options.js';
import type { AfterTool, InputValidator, Plan, ToolCallInfo } from './plan.js';
import { decidingHook, denyText, rewritingHook, stopText } from './texts.js';

/** No extra lines: what almost every call has, so not a new array each time. */
const NO_EXTRA: readonly string[] = Object.freeze([]);

/**
 * Tool calls through the policy, the same way for every host that runs tools itself
 * (the runtime, each framework adapter, the MCP proxy): PreToolUse (deny, stop,
 * rewrite, ask), PermissionRequest for an ask, then the approval store or approver,
 * the audit record, and exactly one PostToolUse or PostToolUseFailure per executed
 * call. Hosts map the Plan and the AfterTool onto their own types and nothing else.
 */
export class ToolGate {
  readonly sessionId: string;
  readonly cwd: string;
  private readonly sinks: CoverageSink[];
  /** Calls a PreToolUse stop let run (Claude Code's `continue: false`): the run ends after them. */
  private readonly stopAfter = new Map<string, Outcome>();
  /** What the model is told beside a call's result: PreToolUse's context, an approver's note. */
  private readonly notes = new Map<string, string[]>();
  /** Every fire's options: the same for the gate's life, so not rebuilt per fire. */
  private readonly fireOptions: { sessionId: string; cwd: string };
  private readonly ask: AskContext;

  constructor(
    readonly engine: HookEngine,
    readonly host: string,
    readonly options: AdapterOptions = {},
    private readonly runner: GateHost = {},
  ) {
    this.sessionId = options.sessionId ?? randomUUID();
    this.cwd = options.cwd ?? process.cwd();
    this.fireOptions = { sessionId: this.sessionId, cwd: this.cwd };
    this.sinks = [];
    if (options.audit) this.sinks.push(new AuditCoverage(options.audit, engine));
    if (options.coverage) this.sinks.push(options.coverage);
    this.ask = {
      sessionId: this.sessionId,
      options,
      host: runner,
      fire: (event, fields) => this.fire(event, fields),
      note: (call, text) => this.note(call, text),
    };
  }

  /** Fire any event in this gate's session. */
  fire(event: string, fields: Record<string, unknown> = {}): Promise<Outcome> {
    if (this.runner.fire) return this.runner.fire(event, fields);
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
    if (this.runner.fire) return this.runner.fire(event, fields);
    const input: HookInput = { hook_event_name: event, session_id: this.sessionId, cwd: this.cwd, ...fields };
    return this.engine.fireMaybeSync(event, input, this.fireOptions);
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
    const pre = this.fireTool('PreToolUse', call, call.input, fields);
    return andThen(pre, (o) => this.planFrom(call, o, validate, fields));
  }

  private planFrom(call: ToolCallInfo, pre: Outcome, validate?: InputValidator, fields?: Record<string, unknown>): Plan | Promise<Plan> {
    // A stop that refuses (hookwise's stop()) ends the run now; one that does not (`continue: false`) after this call.
    if (pre.stop && pre.blocked) return { action: 'stop', message: stopText(pre), pre, by: pre };
    if (pre.blocked) return { action: 'deny', message: denyText(pre, call.name), pre, by: pre };
    if (pre.stop) this.stopAfter.set(call.id, pre);
    if (pre.additionalContext) this.note(call, pre.additionalContext);
    if (!pre.updatedInput && pre.decision !== 'ask' && pre.decision !== 'defer')
      return { action: 'run', input: call.input, pre, approvedBy: 'policy' };
    return this.rewriteOrAsk(call, pre, validate, fields);
  }

  /** A PreToolUse that rewrote the input (validated first) or asked (PermissionRequest). */
  private async rewriteOrAsk(call: ToolCallInfo, pre: Outcome, validate?: InputValidator, fields?: Record<string, unknown>): Promise<Plan> {
    let input = call.input;
    if (pre.updatedInput) {
      const checked = validate ? await validate(pre.updatedInput) : { ok: true as const, value: pre.updatedInput };
      if (!checked.ok) return this.refuse(call, pre, invalidRewrite(pre, call, checked.message));
      input = checked.value;
    }
    if (pre.decision !== 'ask' && pre.decision !== 'defer') return { action: 'run', input, pre, approvedBy: 'policy' };

    const answer = await this.fireTool('PermissionRequest', call, input, { ...fields, permission_suggestions: [], reason: pre.reason });
    if (answer.stop) return this.settle(call, { action: 'stop', message: stopText(answer), pre, by: answer });
    if (answer.blocked || answer.decision === 'deny') {
      this.runner.onAnswer?.(call, { approved: false, by: 'hook' });
      return this.refuse(call, pre, denyText(answer, call.name), answer);
    }
    if (answer.decision === 'allow') {
      this.runner.onAnswer?.(call, { approved: true, by: 'hook' });
      if (!answer.updatedInput) return { action: 'run', input, pre, approvedBy: 'hook' };
      const checked = validate ? await validate(answer.updatedInput) : { ok: true as const, value: answer.updatedInput };
      if (!checked.ok) return this.refuse(call, pre, invalidRewrite(answer, call, checked.message));
      return { action: 'run', input: checked.value, pre, approvedBy: 'hook' };
    }
    return { action: 'ask', input, pre, reason: pre.reason };
  }

  /** Whether this gate answers an ask itself (an approvals store or an approver), rather than the framework's own approval. */
  get answersAsks(): boolean {
    return this.options.approvals !== undefined || this.options.approve !== undefined;
  }

  /** An ask answered by the approvals store, else the approver option; with nobody to ask, the tool does not run. */
  async resolveAsk(
    call: ToolCallInfo,
    plan: Plan & { action: 'ask' },
    approver: Approver | undefined = this.options.approve,
  ): Promise<Plan> {
    return this.settle(call, await resolveAsk(this.ask, call, plan, approver));
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
      ...(this.runner.agentId === undefined ? {} : { agentId: this.runner.agentId }),
    };
    try {
      for (const sink of this.sinks) await sink.toolExecuted(execution);
      return null;
    } catch (error) {
      this.settle(call, null);
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
    const post = this.fireTool('PostToolUse', call, input, fields, output);
    return andThen(post, (o) => this.afterFrom(call, output, o));
  }

  private afterFrom(call: ToolCallInfo, output: unknown, post: Outcome): AfterTool {
    const replaced = post.updatedOutput !== null && post.updatedOutput !== undefined;
    let extra = this.takeNotes(call);
    if (post.blocked && !post.stop && post.reason) extra = [...extra, `PostToolUse hook "${decidingHook(post)}" says: ${post.reason}`];
    if (post.additionalContext) extra = [...extra, post.additionalContext];
    const stoppedBy = post.stop ? post : this.pendingStop(call);
    return { output: replaced ? post.updatedOutput : output, replaced, extra, stop: stoppedBy ? stopText(stoppedBy) : null, stoppedBy };
  }

  /**
   * PostToolUseFailure for a call that threw (or `event`, for a host that reports
   * failures as PostToolUse): the stop, if a hook stopped the agent, and the lines to show.
   */
  failed(
    call: ToolCallInfo,
    input: Record<string, unknown>,
    error: unknown,
    fields?: Record<string, unknown>,
    event = 'PostToolUseFailure',
  ): Pick<AfterTool, 'stop' | 'stoppedBy' | 'extra'> | Promise<Pick<AfterTool, 'stop' | 'stoppedBy' | 'extra'>> {
    const message = error instanceof Error ? error.message : String(error);
    const failure = this.fireTool(event, call, input, { error: message, is_interrupt: false, ...fields });
    return andThen(failure, (o) => {
      const notes = this.takeNotes(call);
      const extra = o.additionalContext ? [...notes, o.additionalContext] : notes;
      const stoppedBy = o.stop ? o : this.pendingStop(call);
      return { stop: stoppedBy ? stopText(stoppedBy) : null, stoppedBy, extra };
    });
  }

  /**
   * A tool event: the gate's fields, the host's `fields`, then the call's own, which
   * no host field overrides. Without host fields (the AI SDK's every call) it is one
   * literal: a spread per call costs more than the no-op hooks it feeds.
   */
  private fireTool(
    event: string,
    call: ToolCallInfo,
    toolInput: Record<string, unknown>,
    fields?: Record<string, unknown>,
    response?: unknown,
  ): Outcome | Promise<Outcome> {
    if (this.runner.fire) {
      const own = { ...fields, tool_name: call.name, tool_input: toolInput, tool_use_id: call.id };
      return this.runner.fire(event, response === undefined ? own : { ...own, tool_response: response });
    }
    const input: HookInput =
      fields === undefined
        ? {
            hook_event_name: event,
            session_id: this.sessionId,
            cwd: this.cwd,
            tool_name: call.name,
            tool_input: toolInput,
            tool_use_id: call.id,
          }
        : {
            hook_event_name: event,
            session_id: this.sessionId,
            cwd: this.cwd,
            ...fields,
            tool_name: call.name,
            tool_input: toolInput,
            tool_use_id: call.id,
          };
    if (response !== undefined) input.tool_response = response;
    return this.engine.fireMaybeSync(event, input, this.fireOptions);
  }

  /** A refusal of a call PreToolUse let through: what the gate kept for it is dropped. */
  private refuse(call: ToolCallInfo, pre: Outcome, message: string, by?: Outcome): Plan {
    return this.settle(call, { action: 'deny', message, pre, ...(by === undefined ? {} : { by }) });
  }

  /** A plan that will not run the call forgets the call's notes and pending stop. */
  private settle<P extends Plan | null>(call: ToolCallInfo, plan: P): P {
    if (plan === null || plan.action === 'deny' || plan.action === 'stop') {
      this.notes.delete(call.id);
      this.stopAfter.delete(call.id);
    }
    return plan;
  }

  private note(call: ToolCallInfo, text: string): void {
    const notes = this.notes.get(call.id);
    if (notes) notes.push(text);
    else this.notes.set(call.id, [text]);
  }

  /** The lines kept for a call, as the start of its extra lines; shared and frozen when there are none (the usual call). */
  private takeNotes(call: ToolCallInfo): readonly string[] {
    if (this.notes.size === 0) return NO_EXTRA;
    const notes = this.notes.get(call.id);
    this.notes.delete(call.id);
    return notes ?? NO_EXTRA;
  }

  private pendingStop(call: ToolCallInfo): Outcome | null {
    if (this.stopAfter.size === 0) return null;
    const outcome = this.stopAfter.get(call.id) ?? null;
    this.stopAfter.delete(call.id);
    return outcome;
  }
}

function invalidRewrite(by: Outcome, call: ToolCallInfo, why: string): string {
  return `${by.event} hook "${rewritingHook(by)}" rewrote the input of ${call.name} into invalid input (${why}). The tool was not run.`;
}
