import type { Approval } from '../approvals/types.js';
import type { Outcome } from '../core/outcome.js';
import { AuditCoverage, ToolGate, type AfterTool, type Plan, type ToolCallInfo } from '../gate/index.js';
import type { ChatMessage, ToolCall } from '../providers/types.js';
import { checkpointWaiting } from './checkpoint.js';
import { blockedBy } from './hook-gateway.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';
import { outputText, validateToolInput, type Tool } from './tool.js';
import { runTool, toolContext } from './tool-runner.js';
import type { RuntimeEvent } from './types.js';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** A call of the batch that has its result. */
export interface CallResult {
  message: ToolMessage;
  /** What PostToolBatch reports for the call. */
  status: 'ok' | 'error' | 'denied' | 'not_run';
  input: Record<string, unknown>;
  response?: unknown;
  halt?: Halt;
}

export interface BatchResult {
  /** One tool result per call run now, in call order: the model always gets an answer. */
  messages: ToolMessage[];
  halt?: Halt;
}

export class HookedToolExecutor {
  /** Results of this batch so far, for a checkpoint written while a call waits for an approval. */
  private results: CallResult[] = [];
  /** The call being run, as the model made it: what a checkpoint taken during its ask records. */
  private current: ToolCall | null = null;
  /** The tool gate every host shares (../gate/tool-gate.ts), firing through the runtime's own gateway. */
  private readonly gate: ToolGate;

  constructor(private readonly run: RunContext) {
    this.gate = runtimeGate(run, (call) => checkpointWaiting(run, this.current ?? call, this.results));
  }

  /**
   * Runs `calls` in order. `done`: the calls of the same batch that already have
   * their results (in the conversation), when a resumed run finishes a batch a
   * killed process began; PostToolBatch still reports the whole batch.
   */
  async executeBatch(calls: ToolCall[], done: Array<CallResult & { call: ToolCall }> = []): Promise<BatchResult> {
    const results: CallResult[] = done.slice();
    this.results = results;
    let halt: Halt | undefined;
    for (const call of calls) {
      if (halt) {
        results.push(notRun(call, halt));
        continue;
      }
      const result = await this.execute(call);
      results.push(result);
      halt = result.halt ?? this.run.session.halt ?? undefined;
    }
    const messages = results.slice(done.length).map((r) => r.message);
    if (halt) return { messages, halt };

    const all = [...done.map((d) => d.call), ...calls];
    const batch = await this.run.hooks.fire('PostToolBatch', {
      tool_calls: results.map((r, i) => ({
        tool_name: all[i]!.name,
        tool_input: r.input,
        tool_use_id: all[i]!.id,
        status: r.status,
        tool_response: r.response ?? r.message.content,
      })),
    });
    if (batch.stop) return { messages, halt: stopHalt(batch) };
    if (batch.blocked) return { messages, halt: { stopReason: 'hook_blocked', reason: `PostToolBatch ${blockedBy(batch)}` } };
    return { messages };
  }

  private async execute(call: ToolCall): Promise<CallResult> {
    const tool = this.run.tools.get(call.name);
    if (!tool) {
      const known = [...this.run.tools.keys()].join(', ') || 'none';
      return refused(call, call.input, `Error: there is no tool named "${call.name}" (tools: ${known})`, 'error');
    }
    const checked = validateToolInput(tool, call.input);
    if (!checked.ok) return refused(call, call.input, `Error: invalid input for ${call.name}: ${checked.message}`, 'error');

    this.current = call;
    const info: ToolCallInfo = { name: call.name, input: checked.value, id: call.id };
    let plan: Plan = await this.gate.before(info, (input) => validateToolInput(tool, input), {
      recent_tools: this.run.recentTools.slice(),
    });
    if (plan.action === 'ask') plan = await this.gate.resolveAsk(info, plan);
    switch (plan.action) {
      case 'stop':
        return this.denied(call, checked.value, `${plan.by.event} ${blockedBy(plan.by)} (the agent is stopping)`, stopHalt(plan.by));
      case 'deny':
        return this.denied(
          call,
          checked.value,
          plan.by ? `Error: ${plan.by.event} ${blockedBy(plan.by)}. The tool was not run.` : `Error: ${plan.message}`,
        );
      case 'run':
        return this.runHooked(tool, call, info, plan);
      default:
        return this.denied(call, checked.value, 'Error: not run.');
    }
  }

  private async runHooked(tool: Tool, call: ToolCall, info: ToolCallInfo, plan: Plan & { action: 'run' }): Promise<CallResult> {
    const run = this.run;
    const session = run.session;
    const input = plan.input;
    // The record is on disk before the tool runs; a tool the audit cannot record does not run.
    const unrecorded = await this.gate.admit(info, plan);
    if (unrecorded) return this.denied(call, input, `Error: ${unrecorded}`);
    session.observer.emit({ type: 'tool_start', tool: call.name, input, toolUseId: call.id, ...run.tag });
    const ctx = toolContext(run, call);
    const t0 = performance.now();
    const ran = await runTool(tool, input, ctx);
    const durationMs = performance.now() - t0;
    run.ranTool(call.name);
    // Claude Code's `duration_ms`, and the A3S-style `result` summary beside it.
    const duration_ms = Math.round(durationMs);
    const result = (success: boolean, output: string) => ({ success, output, ...ctx.annotations, duration_ms });

    if (!ran.ok) {
      session.observer.emit({
        type: 'tool_end',
        tool: call.name,
        toolUseId: call.id,
        ok: false,
        output: ran.error,
        durationMs,
        ...run.tag,
      });
      const event = session.options.toolFailureEvent ?? 'PostToolUseFailure';
      const fields = { is_interrupt: ran.interrupted, duration_ms, result: result(false, ran.error) };
      const failure = await this.gate.failed(
        info,
        input,
        ran.error,
        event === 'PostToolUse' ? { ...fields, tool_response: { error: ran.error } } : fields,
        event,
      );
      return { message: toolMessage(call, joined(`Error: ${ran.error}`, failure.extra), true), status: 'error', input, ...haltOf(failure) };
    }

    const text = outputText(ran.output);
    session.observer.emit({ type: 'tool_end', tool: call.name, toolUseId: call.id, ok: true, output: text, durationMs, ...run.tag });
    // PostToolUse cannot undo the call; a block there is feedback shown beside the result (as in Claude Code).
    const after = await this.gate.after(info, input, ran.output, { duration_ms, result: result(true, text) });
    const seen = after.replaced ? outputText(after.output) : text;
    return { message: toolMessage(call, joined(seen, after.extra), false), status: 'ok', input, response: ran.output, ...haltOf(after) };
  }

  private denied(call: ToolCall, input: Record<string, unknown>, text: string, halt?: Halt): CallResult {
    this.run.session.observer.emit({ type: 'tool_denied', tool: call.name, toolUseId: call.id, reason: text, ...this.run.tag });
    const result = refused(call, input, text, 'denied');
    if (halt) result.halt = halt;
    return result;
  }
}

/**
 * The gate as the runtime runs it: fires through the run's gateway (its common
 * fields, transcript and retry rule), records `tool` rows in the session's audit
 * store (the engine's outcomes are recorded by the session already), and tells
 * observers about approvals; a durable ask first checkpoints the batch so far.
 */
function runtimeGate(run: RunContext, checkpoint: (call: ToolCall) => Promise<void>): ToolGate {
  const { session } = run;
  const o = session.options;
  let shown = { approvalId: '', seconds: -1 };
  return new ToolGate(
    session.engine,
    'runtime',
    {
      sessionId: session.sessionId,
      cwd: session.cwd,
      ...(session.audit ? { coverage: new AuditCoverage(session.audit) } : {}),
      ...(o.approvals === undefined ? {} : { approvals: o.approvals }),
      ...(o.approve === undefined ? {} : { approve: o.approve }),
      ...(o.tenant === undefined ? {} : { tenant: o.tenant }),
      ...(o.approvalExpiry === undefined ? {} : { approvalExpiry: o.approvalExpiry }),
    },
    {
      fire: (event, fields) => run.hooks.fire(event, fields),
      ...(run.identity.agentId === undefined ? {} : { agentId: run.identity.agentId }),
      signal: session.signal,
      beforeWait: (call) => checkpoint(asToolCall(call)),
      // The store is read often; observers hear of the wait when it begins, then once a second.
      onWaiting: (call, approval, waitedMs) => {
        const seconds = Math.floor(waitedMs / 1000);
        if (shown.approvalId === approval.id && seconds <= shown.seconds) return;
        shown = { approvalId: approval.id, seconds };
        session.observer.emit({
          type: 'approval_wait',
          approvalId: approval.id,
          tool: call.name,
          toolUseId: call.id,
          waitedMs,
          expiresAt: approval.expiresAt,
          ...run.tag,
        });
      },
      onAnswer: (call, answer) =>
        session.observer.emit({
          type: 'approval',
          tool: call.name,
          toolUseId: call.id,
          approved: answer.approved,
          by: answer.by,
          ...recordOf(answer.approval),
          ...run.tag,
        }),
    },
  );
}

type ApprovalEvent = Extract<RuntimeEvent, { type: 'approval' }>;

function recordOf(approval: Approval | undefined): Pick<ApprovalEvent, 'approvalId' | 'answeredBy' | 'note'> {
  return approval === undefined ? {} : { approvalId: approval.id, answeredBy: approval.answeredBy, note: approval.note };
}

const asToolCall = (call: ToolCallInfo): ToolCall => ({ id: call.id, name: call.name, input: call.input });

/** The run's halt when a hook stopped the agent during or after the call. */
function haltOf(after: Pick<AfterTool, 'stoppedBy'>): { halt?: Halt } {
  return after.stoppedBy ? { halt: stopHalt(after.stoppedBy as Outcome) } : {};
}

function refused(call: ToolCall, input: Record<string, unknown>, text: string, status: CallResult['status']): CallResult {
  return { message: toolMessage(call, text, true), status, input };
}

function notRun(call: ToolCall, halt: Halt): CallResult {
  const why = halt.reason ? `: ${halt.reason}` : '';
  return refused(call, call.input, `Error: not run, the agent was stopped${why}`, 'not_run');
}

function toolMessage(call: ToolCall, content: string, isError: boolean): ToolMessage {
  const message: ToolMessage = { role: 'tool', toolCallId: call.id, name: call.name, content };
  if (isError) message.isError = true;
  return message;
}

function joined(text: string, extra: readonly string[]): string {
  return extra.length === 0 ? text : [text, ...extra].join('\n\n');
}
