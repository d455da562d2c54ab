import { z } from 'zod';
import { defineTool, type Tool } from '../tool.js';
import { ToolFailedError } from '../errors.js';

export interface SubagentDefinition {
  description: string;
  systemPrompt?: string;
  /** Default: the parent's tools, minus Task. */
  tools?: Tool[];
}

export interface TaskToolOptions {
  /** Known subagent types; when given, other types are refused. */
  agents?: Record<string, SubagentDefinition>;
}

/**
 * Task: run a subagent (Claude Code's name for it). The child runs in the same
 * session with its own agent_id; SubagentStart may refuse it, SubagentStop may
 * keep it going. A child that does not finish is a tool failure.
 */
export function taskTool(options: TaskToolOptions = {}): Tool {
  const agents = options.agents;
  const types = agents ? Object.entries(agents).map(([type, def]) => `${type}: ${def.description}`) : [];
  const tool = defineTool({
    name: 'Task',
    description: `Delegate a task to a subagent that works on its own and returns its final answer.${types.length ? ` Subagent types: ${types.join('; ')}` : ''}`,
    input: z.object({
      description: z.string().min(1),
      prompt: z.string().min(1),
      subagent_type: z.string().min(1),
    }),
    run: async ({ description, prompt, subagent_type }, ctx) => {
      const def = agents?.[subagent_type];
      if (agents && !def) throw new ToolFailedError(`unknown subagent_type "${subagent_type}"; known: ${Object.keys(agents).join(', ')}`);
      const result = await ctx.runSubagent({
        agentType: subagent_type,
        prompt,
        description,
        tools: def?.tools,
        systemPrompt: def?.systemPrompt,
      });
      if (!result.ok) throw new ToolFailedError(result.text);
      return result.text;
    },
  });
  return { ...tool, spawnsSubagents: true } as Tool;
}
