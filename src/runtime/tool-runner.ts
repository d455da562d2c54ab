import type { ToolCall } from '../providers/types.js';
import type { RunContext } from './run-context.js';
import type { Tool, ToolContext, ToolOutput } from './tool.js';

export type ToolRun = { ok: true; output: ToolOutput } | { ok: false; error: string; interrupted: boolean };

/** Plain tool execution, no hooks: call `run`, turn a throw into a failure. */
export async function runTool(tool: Tool, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolRun> {
  try {
    const output = await tool.run(input, ctx);
    return { ok: true, output: output ?? '' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), interrupted: ctx.signal.aborted };
  }
}

/** The context a tool gets for one call, and what the tool annotated while it ran. */
export function toolContext(run: RunContext, call: ToolCall): ToolContext & { readonly annotations: Record<string, unknown> } {
  const session = run.session;
  const annotations: Record<string, unknown> = {};
  return {
    annotations,
    annotate: (fields) => void Object.assign(annotations, fields),
    fireHook: (event, fields = {}) => run.hooks.fire(event, fields),
    cwd: session.cwd,
    signal: session.signal,
    sessionId: session.sessionId,
    toolUseId: call.id,
    agentId: run.identity.agentId,
    agentType: run.identity.agentType,
    notify: async (message, notificationType = 'tool') => {
      await run.hooks.fire('Notification', { message, notification_type: notificationType, tool_name: call.name, tool_use_id: call.id });
    },
    runSubagent: (request) => session.spawnSubagent(run, request),
  };
}
