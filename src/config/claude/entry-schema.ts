import { z } from 'zod';

/**
 * One handler entry of a Claude Code `hooks` block, as Claude Code documents it,
 * plus hookwise's `protocol` and seed 003's `timeout_secs`. Unknown fields are
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
  /** Seed 003's name-to-config entries carry their own matcher. */
  matcher: z.string().optional(),
};

export const commandEntrySchema = z.looseObject({
  type: z.literal('command').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
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
  ...common,
});

export type CommandEntry = z.infer<typeof commandEntrySchema>;
export type HttpEntry = z.infer<typeof httpEntrySchema>;
export type PromptEntry = z.infer<typeof promptEntrySchema>;
export type HandlerEntry = CommandEntry | HttpEntry | PromptEntry;

export const KNOWN_ENTRY_FIELDS = new Set([
  'type', 'command', 'args', 'protocol', 'url', 'headers', 'allowedEnvVars', 'prompt', 'model',
  ...Object.keys(common),
]);

export const schemaForType = { command: commandEntrySchema, http: httpEntrySchema, prompt: promptEntrySchema } as const;
