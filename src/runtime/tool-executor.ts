import type { AuditRecord } from '../audit/types.js';
import type { Outcome } from '../core/outcome.js';
import type { ChatMessage, ToolCall } from '../providers/types.js';
import { checkpointWaiting } from './checkpoint.js';
import { blockedBy, decidingHook, rewritingHook } from './hook-gateway.js';
import { requestPermission, type Permission } from './permission.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';
import { outputText, validateToolInput, type Tool } from './tool.js';
import { runTool, toolContext } from './tool-runner.js';

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

/**
 * Tool execution with hooks around it: PreToolUse (deny, ask, rewrite, stop),
 * the permission flow, the audit record, then exactly one of PostToolUse /
 * PostToolUseFailure per executed call, and PostToolBatch after the turn's calls.
 */
export class HookedToolExecutor {
  /** Results of this batch so far, for a checkpoint written while a call waits for an approval. */
  private results: CallResult[] = [];

  constructor(private readonly run: RunContext) {}

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
    const run = this.run;
    const tool = run.tools.get(call.name);
    if (!tool) {
      const known = [...run.tools.keys()].join(', ') || 'none';
      return refused(call, call.input, `Error: there is no tool named "${call.name}" (tools: ${known})`, 'error');
    }
    const checked = validateToolInput(tool, call.input);
    if (!checked.ok) return refused(call, call.input, `Error: invalid input for ${call.name}: ${checked.message}`, 'error');

    // Hooks get their own copy: an edit in place can never change what runs without being seen.
    const shown = structuredClone(checked.value);
    const pre = await run.hooks.fire('PreToolUse', {
      tool_name: call.name,
      tool_input: shown,
      tool_use_id: call.id,
      recent_tools: run.recentTools.slice(),
    });
    // A stop with a block refuses the call; a stop alone (Claude Code's `continue: false`) runs it, then ends the turn.
    if (pre.stop && pre.blocked)
      return this.denied(call, checked.value, `PreToolUse ${blockedBy(pre)} (the agent is stopping)`, stopHalt(pre));
    if (pre.blocked) return this.denied(call, checked.value, `Error: PreToolUse ${blockedBy(pre)}. The tool was not run.`);

    if (pre.updatedInput === null && pre.hooks.length > 0 && JSON.stringify(shown) !== JSON.stringify(checked.value)) {
      return this.denied(
        call,
        shown,
        `Error: a PreToolUse hook changed tool_input in place without returning it as a rewrite; the edit is refused rather than applied unrecorded. Return modify(newInput) (or updatedInput) to rewrite a call. The tool was not run.`,
      );
    }
    let input = checked.value;
    if (pre.updatedInput) {
      const rewritten = validateToolInput(tool, pre.updatedInput);
      if (!rewritten.ok) {
        return this.denied(
          call,
          pre.updatedInput,
          `Error: PreToolUse hook "${rewritingHook(pre)}" rewrote the input of ${call.name} into invalid input (${rewritten.message}). The tool was not run.`,
        );
      }
      input = rewritten.value;
    }

    let permission: Permission | undefined;
    if (pre.decision === 'ask' || pre.decision === 'defer') {
      permission = await requestPermission(run, call, input, pre, {
        beforeWait: () => checkpointWaiting(run, call, this.results),
      });
      if (!permission.granted) return this.denied(call, input, `Error: ${permission.reason}. The tool was not run.`, permission.halt);
      if (permission.rewritten) {
        const rewritten = validateToolInput(tool, permission.input);
        if (!rewritten.ok) {
          return this.denied(
            call,
            permission.input,
            `Error: a PermissionRequest hook rewrote the input of ${call.name} into invalid input (${rewritten.message}). The tool was not run.`,
          );
        }
        input = rewritten.value;
      }
    }
    const ran = await this.runHooked(tool, call, input, pre, permission?.granted ? permission : undefined);
    if (pre.stop && !ran.halt) ran.halt = stopHalt(pre);
    return ran;
  }

  private async runHooked(
    tool: Tool,
    call: ToolCall,
    input: Record<string, unknown>,
    pre: Outcome,
    approval?: { approvalId?: string; context?: string },
  ): Promise<CallResult> {
    const run = this.run;
    const session = run.session;
    const record: AuditRecord = {
      kind: 'tool',
      ts: new Date().toISOString(),
      sessionId: session.sessionId,
      tool: call.name,
      data: {
        tool_name: call.name,
        tool_input: input,
        tool_use_id: call.id,
        ...(run.identity.agentId ? { agent_id: run.identity.agentId } : {}),
        // The durable approval that let it run: `hookwise approvals show <id>` tells who and why.
        ...(approval?.approvalId ? { approval_id: approval.approvalId } : {}),
      },
    };
    // The record is on disk before the tool runs; a tool the audit cannot record does not run.
    try {
      if (session.audit?.appendDurable) await session.audit.appendDurable(record);
      else session.audit?.append(record);
    } catch (error) {
      return this.denied(
        call,
        input,
        `Error: the audit trail could not record this ${call.name} call (${(error as Error).message}). The tool was not run.`,
      );
    }
    session.observer.emit({ type: 'tool_start', tool: call.name, input, toolUseId: call.id, ...run.tag });
    const ctx = toolContext(run, call);
    const t0 = performance.now();
    const ran = await runTool(tool, input, ctx);
    const durationMs = performance.now() - t0;
    run.ranTool(call.name);
    const extra = [pre.additionalContext, approval?.context].filter((text): text is string => typeof text === 'string' && text !== '');
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
      const failure = await run.hooks.fire(event, {
        tool_name: call.name,
        tool_input: input,
        tool_use_id: call.id,
        ...(event === 'PostToolUse' ? { tool_response: { error: ran.error } } : {}),
        error: ran.error,
        is_interrupt: ran.interrupted,
        duration_ms,
        result: result(false, ran.error),
      });
      if (failure.additionalContext) extra.push(failure.additionalContext);
      const halt = failure.stop ? stopHalt(failure) : undefined;
      return { message: toolMessage(call, joined(`Error: ${ran.error}`, extra), true), status: 'error', input, halt };
    }

    const text = outputText(ran.output);
    session.observer.emit({ type: 'tool_end', tool: call.name, toolUseId: call.id, ok: true, output: text, durationMs, ...run.tag });
    const post = await run.hooks.fire('PostToolUse', {
      tool_name: call.name,
      tool_input: input,
      tool_use_id: call.id,
      tool_response: ran.output,
      duration_ms,
      result: result(true, text),
    });
    // PostToolUse cannot undo the call; a block there is feedback shown beside the result (as in Claude Code).
    const seen = post.updatedOutput !== null && post.updatedOutput !== undefined ? outputText(post.updatedOutput) : text;
    if (post.blocked && !post.stop && post.reason) extra.push(`PostToolUse hook "${decidingHook(post)}" says: ${post.reason}`);
    if (post.additionalContext) extra.push(post.additionalContext);
    const halt = post.stop ? stopHalt(post) : undefined;
    return { message: toolMessage(call, joined(seen, extra), false), status: 'ok', input, response: ran.output, halt };
  }

  private denied(call: ToolCall, input: Record<string, unknown>, text: string, halt?: Halt): CallResult {
    this.run.session.observer.emit({ type: 'tool_denied', tool: call.name, toolUseId: call.id, reason: text, ...this.run.tag });
    const result = refused(call, input, text, 'denied');
    if (halt) result.halt = halt;
    return result;
  }
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

function joined(text: string, extra: string[]): string {
  return extra.length === 0 ? text : [text, ...extra].join('\n\n');
}
