import { z } from 'zod';
import type { Outcome } from '../core/outcome.js';
import type { ToolDefinition } from '../providers/types.js';
import { RuntimeOptionError } from './errors.js';

/** What a running tool can reach besides its input. */
export interface ToolContext {
  /** The agent's working directory. */
  readonly cwd: string;
  /** Fires when the run is aborted. */
  readonly signal: AbortSignal;
  readonly sessionId: string;
  readonly toolUseId: string;
  /** Set inside a subagent. */
  readonly agentId?: string;
  readonly agentType?: string;
  /** Fire a Notification event (e.g. "waiting for the build"). */
  notify(message: string, notificationType?: string): Promise<void>;
  /**
   * Fire any event through the runtime (a custom one, or e.g. SubagentStart from
   * a tool that starts workers): the input gets the common fields, the fire is
   * written to the transcript and seen by observers. The tool decides what the
   * Outcome means; the runtime does not act on it.
   */
  fireHook(event: string, fields?: Record<string, unknown>): Promise<Outcome>;
  /** Facts about this call for the `result` field of PostToolUse / PostToolUseFailure (e.g. `{ exit_code: 0 }`). */
  annotate(fields: Record<string, unknown>): void;
  /** Run a child agent in the same session and engine; resolves to its final text. */
  runSubagent(request: SubagentRequest): Promise<SubagentResult>;
}

export interface SubagentRequest {
  agentType: string;
  prompt: string;
  description?: string;
  /** Tools the child gets; default: the parent's tools minus the subagent tool itself. */
  tools?: Tool[];
  systemPrompt?: string;
}

export interface SubagentResult {
  /** False when SubagentStart blocked the child or the child failed. */
  ok: boolean;
  text: string;
  agentId: string;
  stopReason: string;
  reason: string | null;
}

export type ToolOutput = string | Record<string, unknown> | unknown[];

/** A tool the agent can call. `input` is a zod object schema; its JSON Schema goes to the model. */
export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolOutput> | ToolOutput;
  /** Marks the subagent tool, so a child agent does not inherit it. */
  readonly spawnsSubagents?: boolean;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Define a tool; checks the name and that `input` is a zod object schema. */
export function defineTool<S extends z.ZodObject>(tool: Tool<S>): Tool<S> {
  if (!TOOL_NAME.test(tool.name)) {
    throw new RuntimeOptionError(`defineTool: name ${JSON.stringify(tool.name)} must be 1-64 letters, digits, "_" or "-"`);
  }
  if (!(tool.input instanceof z.ZodObject)) {
    throw new RuntimeOptionError(`defineTool(${tool.name}): input must be a zod object schema, e.g. z.object({ path: z.string() })`);
  }
  if (typeof tool.run !== 'function') throw new RuntimeOptionError(`defineTool(${tool.name}): run must be a function`);
  return tool;
}

/** The definition a provider sends to the model. */
export function toolDefinition(tool: Tool): ToolDefinition {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, inputSchema: schema };
}

/** Validate input against a tool's schema: the parsed value, or a one-line message naming the fields. */
export function validateToolInput(
  tool: Tool,
  input: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const parsed = tool.input.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
  const issues = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(input)'}: ${issue.message}`);
  return { ok: false, message: issues.join('; ') };
}

/** What the model sees of a tool's output. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output, null, 2);
}
