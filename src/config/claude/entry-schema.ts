import { z } from 'zod';

/**
 * One handler entry of a Claude Code `hooks` block, as Claude Code documents it,
 * plus hookwise's `protocol` and claude-agent-rs' `timeout_secs`. Unknown fields are
 * kept (Claude Code ignores them too) and reported as warnings by the caller.
 */
const common = {
  timeout: z.number().positive().optional(),
  timeout_secs: z.number().positive().optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
  if: z.string().min(1).optional(),
  onFailure: z.enum(['block', 'continue']).optional(),
  /** claude-agent-rs' name-to-config entries carry their own matcher. */
  matcher: z.string().optional(),
};

export const commandEntrySchema = z.looseObject({
  type: z.literal('command').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Claude Code: the shell that runs `command` (bash by default; powershell = pwsh). */
  shell: z.enum(['bash', 'powershell']).optional(),
  protocol: z.enum(['claude-code', 'workflow', 'claude-agent-rs']).optional(),
  ...common,
});

export const httpEntrySchema = z.looseObject({
  type: z.literal('http'),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  ...common,
});

export const promptEntrySchema = z.looseObject({
  type: z.literal('prompt'),
  prompt: z.string().min(1),
  model: z.string().min(1).optional(),
  /** Claude Code: a "not met" answer blocks without ending the turn. */
  continueOnBlock: z.boolean().optional(),
  ...common,
});

export const agentEntrySchema = z.looseObject({
  type: z.literal('agent'),
  prompt: z.string().min(1),
  model: z.string().min(1).optional(),
  ...common,
});

export const mcpToolEntrySchema = z.looseObject({
  type: z.literal('mcp_tool'),
  server: z.string().min(1),
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  ...common,
});

export type CommandEntry = z.infer<typeof commandEntrySchema>;
export type HttpEntry = z.infer<typeof httpEntrySchema>;
export type PromptEntry = z.infer<typeof promptEntrySchema>;
export type AgentEntry = z.infer<typeof agentEntrySchema>;
export type McpToolEntry = z.infer<typeof mcpToolEntrySchema>;
export type HandlerEntry = CommandEntry | HttpEntry | PromptEntry | AgentEntry | McpToolEntry;

export const KNOWN_ENTRY_FIELDS = new Set([
  'type',
  'command',
  'args',
  'shell',
  'protocol',
  'url',
  'headers',
  'allowedEnvVars',
  'prompt',
  'model',
  'continueOnBlock',
  'server',
  'tool',
  'input',
  ...Object.keys(common),
]);

export const schemaForType = {
  command: commandEntrySchema,
  http: httpEntrySchema,
  prompt: promptEntrySchema,
  agent: agentEntrySchema,
  mcp_tool: mcpToolEntrySchema,
} as const;
