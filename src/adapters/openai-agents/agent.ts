import { Agent, handoff, Handoff, type FunctionTool, type Model, type Tool } from '@openai/agents';
import type { HookEngine } from '../../core/engine.js';
import { HookwiseStopError, UngovernedToolError } from '../shared/errors.js';
import { HookwiseBlockedError } from '../shared/lifecycle.js';
import { ToolGate, type AdapterOptions } from '../../gate/index.js';
import { hookModelInstance } from './model.js';
import { looksLikeAgentTool, sourceAgentOf } from './source-agent.js';
import { governFunctionTool } from './tools.js';

export interface HookAgentOptions extends AdapterOptions {
  /**
   * What hookwise cannot govern (hosted tools the provider runs, computer/shell/
   * apply-patch tools, MCP servers, nested agents it cannot reach): `'refuse'`
   * (default) throws at wrap time; `'report'` keeps them and calls `onUngoverned`.
   */
  ungoverned?: 'refuse' | 'report';
  onUngoverned?: (name: string, why: string) => void;
}

type AnyAgent = Agent<any, any>;

/** Per hookAgent call: the gate, and each original agent's governed clone (handoffs may form cycles). */
interface Scope {
  gate: ToolGate;
  options: HookAgentOptions;
  governed: Map<AnyAgent, AnyAgent>;
}

/**
 * An agent whose function tools, handoffs and agents-as-tools are governed,
 * recursively. The original agent is not changed; the clone's tool and handoff
 * lists are frozen, so a tool pushed later cannot run ungoverned.
 */
export function hookAgent<A extends AnyAgent>(engine: HookEngine, agent: A, options: HookAgentOptions = {}): A {
  const scope: Scope = { gate: new ToolGate(engine, 'openai-agents', options), options, governed: new Map() };
  return governAgent(scope, agent) as A;
}

/** Governed tools, handoffs and models: wrapping one again (a governed agent's clone) would fire its hooks twice. */
const governedParts = new WeakSet<object>();

/** The gate of a governed agent, for hookRun to share its session. */
export const gateOf = new WeakMap<AnyAgent, ToolGate>();

function governAgent(scope: Scope, agent: AnyAgent): AnyAgent {
  const known = scope.governed.get(agent);
  if (known) return known;
  if (gateOf.has(agent)) return agent;
  const clone = agent.clone({});
  scope.governed.set(agent, clone);
  gateOf.set(clone, scope.gate);
  // The clone's name, fixed when it was made: what every fire of its tools and model names.
  const fields = Object.freeze({ agent_type: clone.name });
  clone.tools = Object.freeze(agent.tools.map((tool) => governTool(scope, agent, tool, fields))) as Tool<any>[];
  clone.handoffs = Object.freeze(agent.handoffs.map((h) => governHandoff(scope, h))) as typeof clone.handoffs;
  if (isModel(agent.model) && !governedParts.has(agent.model)) {
    clone.model = hookModelInstance(scope.gate, agent.model, fields);
    governedParts.add(clone.model);
  }
  if ((agent.mcpServers?.length ?? 0) > 0)
    ungoverned(
      scope,
      `${agent.name}.mcpServers`,
      'tools an MCP server lists at run time reach the model without passing through hookAgent; put the server behind `hookwise mcp-proxy` instead',
    );
  return sealed(scope, clone);
}

/**
 * The governed clone, made unchangeable: `agent.tools = [raw]`, `agent.handoffs = …`,
 * `agent.model = raw`, a server pushed onto `mcpServers` all fail (TypeError in strict
 * code) instead of running something ungoverned. Its own `clone()` returns a governed
 * clone (tools given to it are governed too), never an ungoverned copy.
 */
function sealed(scope: Scope, clone: AnyAgent): AnyAgent {
  clone.mcpServers = Object.freeze([...clone.mcpServers]) as typeof clone.mcpServers;
  clone.inputGuardrails = Object.freeze([...clone.inputGuardrails]) as typeof clone.inputGuardrails;
  clone.outputGuardrails = Object.freeze([...clone.outputGuardrails]) as typeof clone.outputGuardrails;
  Object.defineProperty(clone, 'clone', {
    value: (config: Parameters<AnyAgent['clone']>[0]) => governAgent(scope, Agent.prototype.clone.call(clone, config)),
    enumerable: false,
  });
  return Object.freeze(clone) as AnyAgent;
}

function governTool(scope: Scope, owner: AnyAgent, tool: Tool<any>, fields: Record<string, unknown>): Tool<any> {
  if (governedParts.has(tool)) return tool;
  const governed = governToolOnce(scope, owner, tool, fields);
  if (governed !== tool) governedParts.add(governed);
  return governed;
}

function governToolOnce(scope: Scope, owner: AnyAgent, tool: Tool<any>, fields: Record<string, unknown>): Tool<any> {
  if (tool.type !== 'function') {
    ungoverned(
      scope,
      toolName(tool),
      `it is a ${tool.type} tool, which ${tool.type === 'hosted_tool' ? 'the model provider runs' : 'the SDK runs through its own interface'}, not a function hookwise can wrap`,
    );
    return tool;
  }
  const fn = tool as FunctionTool<any, any, any>;
  if (looksLikeAgentTool(tool)) {
    const source = sourceAgentOf(tool);
    if (!source) {
      ungoverned(
        scope,
        fn.name,
        `it runs agent "${owner.name}"'s nested agent, which hookwise cannot reach in this version of @openai/agents`,
      );
      return governFunctionTool(scope.gate, fn, fields);
    }
    // The nested run starts from the tool's own closure: rebuild the tool from the governed agent.
    const nested = governAgent(scope, source).asTool({ toolName: fn.name, toolDescription: fn.description });
    return governFunctionTool(scope.gate, nested as FunctionTool<any, any, any>, fields);
  }
  return governFunctionTool(scope.gate, fn, fields);
}

/**
 * A handoff is a tool call too (`transfer_to_<agent>`): PreToolUse decides it and
 * the agent it hands to is governed. The SDK cannot refuse a handoff and carry on,
 * so a deny ends the run with HookwiseBlockedError.
 */
function governHandoff(scope: Scope, item: AnyAgent | Handoff<any, any>): Handoff<any, any> {
  if (governedParts.has(item)) return item as Handoff<any, any>;
  const original = item instanceof Handoff ? item : handoff(item);
  const target = governAgent(scope, original.agent);
  const governed = new Handoff(target, async (context, args) => {
    const plan = await scope.gate.before({ name: original.toolName, input: parseArgs(args), id: '' }, undefined, {
      agent_type: target.name,
    });
    if (plan.action === 'stop') throw new HookwiseStopError(plan.message, 'PreToolUse');
    if (plan.action === 'deny') throw new HookwiseBlockedError(plan.message, 'PreToolUse');
    if (
      plan.action === 'ask' &&
      !(
        plan.action === 'ask' &&
        (await scope.gate.resolveAsk({ name: original.toolName, input: plan.input, id: '' }, plan)).action === 'run'
      )
    ) {
      throw new HookwiseBlockedError(`handoff ${original.toolName} needs approval and was not approved`, 'PreToolUse');
    }
    const next = await original.onInvokeHandoff(context, args);
    return governAgent(scope, next);
  });
  governed.toolName = original.toolName;
  governed.toolDescription = original.toolDescription;
  governed.inputJsonSchema = original.inputJsonSchema;
  governed.strictJsonSchema = original.strictJsonSchema;
  governed.inputFilter = original.inputFilter;
  governed.isEnabled = original.isEnabled;
  governedParts.add(governed);
  // Frozen: `handoff.onInvokeHandoff = raw` or `handoff.agent = raw` must fail.
  return Object.freeze(governed);
}

function ungoverned(scope: Scope, name: string, why: string): void {
  if (scope.options.ungoverned !== 'report') {
    throw new UngovernedToolError(name, why, 'Remove it, or pass { ungoverned: "report" } to hookAgent to let it through unhooked.');
  }
  scope.options.onUngoverned?.(name, why);
}

function toolName(tool: Tool<any>): string {
  return (tool as { name?: string }).name ?? tool.type;
}

function isModel(model: unknown): model is Model {
  return typeof model === 'object' && model !== null && typeof (model as Model).getResponse === 'function';
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value };
  } catch {
    return { input: text };
  }
}
