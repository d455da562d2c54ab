import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolRequest, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Plan, ToolGate } from '../adapters/shared/tool-gate.js';

/** Asks the human behind the client (MCP elicitation) when the policy says ask; null if the client cannot. */
export type AskHuman = (message: string) => Promise<boolean | null>;

/**
 * One tools/call through the policy, named as Claude Code names MCP tools
 * (`mcp__<server>__<tool>`). A deny, ask nobody answered or stop is a tool result
 * with isError: true carrying the reason, never a protocol error; a replaced
 * output reaches the client as the new content (a string as one text block).
 */
export class GovernedToolCall {
  /** Set once a hook stopped the agent: every later call gets the same answer. */
  private stopped: string | null = null;

  constructor(
    private readonly gate: ToolGate,
    private readonly upstream: Client,
    private readonly serverName: string,
    private readonly askHuman: AskHuman,
  ) {}

  async call(request: CallToolRequest, signal?: AbortSignal): Promise<CallToolResult> {
    if (this.stopped !== null) return refusal(`hookwise stopped the agent: ${this.stopped}`);
    const { name: tool, arguments: args = {} } = request.params;
    const name = `mcp__${this.serverName}__${tool}`;
    const id = randomUUID();
    const call = { name, input: args as Record<string, unknown>, id };
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

    let result: CallToolResult;
    try {
      const params = plan.input === call.input ? request.params : { ...request.params, arguments: plan.input };
      result = (await this.upstream.request({ method: 'tools/call', params }, CallToolResultSchema, { signal })) as CallToolResult;
    } catch (error) {
      const failure = await this.gate.failed(call, plan.input, error);
      if (failure.stop !== null) this.stopped = failure.stop;
      throw error;
    }
    if (result.isError) {
      const failure = await this.gate.failed(call, plan.input, textOf(result));
      if (failure.stop !== null) this.stopped = failure.stop;
      return result;
    }
    const after = await this.gate.after(call, plan.input, result.content);
    if (after.stop !== null) this.stopped = after.stop;
    if (!after.replaced && after.extra.length === 0) return result;
    const content = after.replaced ? contentOf(after.output) : [...result.content];
    for (const text of after.extra) content.push({ type: 'text', text });
    // A replaced output replaces the structured copy too: the redacted data must not leak through it.
    const { structuredContent: _dropped, ...rest } = result;
    return after.replaced ? { ...rest, content } : { ...result, content };
  }

  private async ask(call: { name: string; input: Record<string, unknown>; id: string }, plan: Plan & { action: 'ask' }): Promise<Plan> {
    if (this.gate.options.approve) return this.gate.resolveAsk(call, plan);
    const why = plan.reason ? ` (${plan.reason})` : '';
    const answer = await this.askHuman(`Allow ${call.name} with ${JSON.stringify(plan.input)}?${why}`);
    if (answer === null) return this.gate.resolveAsk(call, plan, undefined);
    return this.gate.resolveAsk(call, plan, () => answer);
  }
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** updatedOutput as MCP content: a string is one text block; content blocks (or `{ content }`) pass as they are. */
function contentOf(output: unknown): CallToolResult['content'] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (Array.isArray(output) && output.every((c) => c && typeof c === 'object' && typeof c.type === 'string'))
    return output as CallToolResult['content'];
  const inner = (output as { content?: unknown } | null)?.content;
  if (Array.isArray(inner)) return inner as CallToolResult['content'];
  return [{ type: 'text', text: JSON.stringify(output) }];
}
