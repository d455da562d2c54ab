import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolRequest, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Plan, ToolGate } from '../gate/index.js';
import { replacedResult, responseOf } from './result-view.js';
import type { ToolCatalog } from './tool-catalog.js';
import { noAnswer } from './upstream-errors.js';

/** The human behind the client (MCP elicitation), asked when the policy says ask. */
export interface HumanChannel {
  /** Whether the client can be asked at all (it declared elicitation). */
  canAsk(): boolean;
  /** true when the human accepted; anything else (declined, cancelled, failed) is a no. */
  ask(message: string): Promise<boolean>;
}

/**
 * One tools/call through the policy, named as Claude Code names MCP tools
 * (`mcp__<server>__<tool>`). The name must be one the upstream lists, exactly: the
 * policy judges the tool that will run, and only that name is forwarded. A deny,
 * ask nobody answered or stop is a tool result with isError: true carrying the
 * reason, never a protocol error. Whatever the upstream answers (a result, an error
 * result, a JSON-RPC error) is output the model reads, so it passes PostToolUse
 * whole; only a call that got no answer (timeout, closed, too large) fires
 * PostToolUseFailure and is a protocol error.
 */
export class GovernedToolCall {
  /** Set once a hook stopped the agent: every later call gets the same answer. */
  private stopped: string | null = null;

  constructor(
    private readonly gate: ToolGate,
    private readonly upstream: Client,
    private readonly catalog: ToolCatalog,
    private readonly serverName: string,
    private readonly human: HumanChannel,
    private readonly maxMessageBytes: number,
  ) {}

  async call(request: CallToolRequest, signal?: AbortSignal): Promise<CallToolResult> {
    if (this.stopped !== null) return refusal(`hookwise stopped the agent: ${this.stopped}`);
    const resolved = await this.catalog.resolve(request.params.name);
    if (!resolved.ok) throw new McpError(ErrorCode.InvalidParams, resolved.message);
    const tool = resolved.name;
    const name = `mcp__${this.serverName}__${tool}`;
    const call = { name, input: (request.params.arguments ?? {}) as Record<string, unknown>, id: randomUUID() };
    let plan: Plan = await this.gate.before(call);
    if (plan.action === 'ask') plan = await this.ask(call, plan);
    if (plan.action === 'stop') {
      this.stopped = plan.message;
      return refusal(`hookwise stopped the agent: ${plan.message}`);
    }
    if (plan.action === 'deny') return refusal(plan.message);
    if (plan.action !== 'run') return refusal('not run');
    const refused = await this.gate.admit(call, plan);
    if (refused) return refusal(refused);

    // Only the listed name, the judged arguments and the client's _meta (progress token) go upstream.
    const { _meta } = request.params;
    const params = { name: tool, arguments: plan.input, ...(_meta === undefined ? {} : { _meta }) };
    let result: CallToolResult;
    try {
      result = (await this.upstream.request({ method: 'tools/call', params }, CallToolResultSchema, { signal })) as CallToolResult;
    } catch (error) {
      const failure = noAnswer(error);
      if (failure === null) {
        // The upstream answered with a JSON-RPC error: its message is output the model reads.
        result = { content: [{ type: 'text', text: `The MCP server answered with an error: ${(error as Error).message}` }], isError: true };
      } else {
        await this.failed(call, plan.input, failure.message);
        throw failure;
      }
    }
    const size = Buffer.byteLength(JSON.stringify(result));
    if (size > this.maxMessageBytes) {
      const tooLarge = new McpError(
        ErrorCode.InternalError,
        `mcp-proxy: the result of ${tool} is ${size.toLocaleString('en')} bytes, over the proxy's limit of ${this.maxMessageBytes.toLocaleString('en')} bytes (--max-message-bytes); it was not passed on`,
      );
      await this.failed(call, plan.input, tooLarge.message);
      throw tooLarge;
    }
    const shown = responseOf(result);
    const after = await this.gate.after(call, plan.input, shown);
    if (after.stop !== null) this.stopped = after.stop;
    if (!after.replaced && after.extra.length === 0) return result;
    const answer = after.replaced
      ? replacedResult(result, after.output, !Array.isArray(shown))
      : { ...result, content: [...result.content] };
    for (const text of after.extra) answer.content.push({ type: 'text', text });
    return answer;
  }

  private async failed(
    call: { name: string; input: Record<string, unknown>; id: string },
    input: Record<string, unknown>,
    message: string,
  ): Promise<void> {
    const failure = await this.gate.failed(call, input, message);
    if (failure.stop !== null) this.stopped = failure.stop;
  }

  private async ask(call: { name: string; input: Record<string, unknown>; id: string }, plan: Plan & { action: 'ask' }): Promise<Plan> {
    if (this.gate.options.approve) return this.gate.resolveAsk(call, plan);
    // The elicitation is the gate's approver, so the gate's Notification comes before the
    // question, as in every host; a client that cannot be asked is a headless run.
    if (!this.human.canAsk()) return this.gate.resolveAsk(call, plan, undefined);
    const why = plan.reason ? ` (${plan.reason})` : '';
    return this.gate.resolveAsk(call, plan, () => this.human.ask(`Allow ${call.name} with ${JSON.stringify(plan.input)}?${why}`));
  }
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
