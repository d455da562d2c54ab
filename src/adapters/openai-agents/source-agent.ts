import type { Agent, Tool } from '@openai/agents';

/**
 * The agent behind an `agent.asTool()` tool. The SDK keeps that link in a registry
 * of its own that it does not export; it is loaded from the application's copy of
 * @openai/agents-core (the same module instance the SDK uses). Without it, such a
 * tool is still governed as a tool, and reported as a nested agent hookwise cannot reach.
 */
type Lookup = (tool: Tool<any>) => Agent<any, any> | undefined;

let lookup: Lookup | null = null;
try {
  const core = import.meta.resolve('@openai/agents-core');
  const registry = (await import(new URL('./agentToolSourceRegistry.mjs', core).href)) as { getAgentToolSourceAgent?: Lookup };
  lookup = registry.getAgentToolSourceAgent ?? null;
} catch {
  lookup = null;
}

export function sourceAgentOf(tool: Tool<any>): Agent<any, any> | undefined {
  return lookup?.(tool);
}

/** `asTool()` tools carry an `on` method for their nested run's events. */
export function looksLikeAgentTool(tool: Tool<any>): boolean {
  return tool.type === 'function' && typeof (tool as { on?: unknown }).on === 'function';
}
