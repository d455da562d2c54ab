import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Agent, Tool } from '@openai/agents';

/**
 * The agent behind an `agent.asTool()` tool. The SDK keeps that link in a registry
 * of its own that it does not export; it is loaded from the application's copy of
 * @openai/agents-core (the same module instance the SDK uses). Without it, such a
 * tool is still governed as a tool, and reported as a nested agent hookwise cannot reach.
 */
type Lookup = (tool: Tool<any>) => Agent<any, any> | undefined;

/** Where the SDK's core is: beside hookwise (hoisted), else inside @openai/agents's own node_modules. */
function coreEntry(): string | null {
  try {
    return import.meta.resolve('@openai/agents-core');
  } catch {
    try {
      return pathToFileURL(createRequire(import.meta.resolve('@openai/agents')).resolve('@openai/agents-core')).href;
    } catch {
      return null;
    }
  }
}

async function loadLookup(): Promise<Lookup | null> {
  const entry = coreEntry();
  if (!entry) return null;
  try {
    // The ES module build, whichever entry resolved: the SDK's ES modules share its registry.
    const registry = (await import(new URL('./agentToolSourceRegistry.mjs', entry).href)) as { getAgentToolSourceAgent?: Lookup };
    return registry.getAgentToolSourceAgent ?? null;
  } catch {
    return null;
  }
}

const lookup = await loadLookup();

export function sourceAgentOf(tool: Tool<any>): Agent<any, any> | undefined {
  return lookup?.(tool);
}

/** `asTool()` tools carry an `on` method for their nested run's events. */
export function looksLikeAgentTool(tool: Tool<any>): boolean {
  return tool.type === 'function' && typeof (tool as { on?: unknown }).on === 'function';
}
