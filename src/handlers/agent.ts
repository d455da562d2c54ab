import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalEvent } from '../compat/event-aliases.js';
import { picomatch } from '../core/lazy-deps.js';
import { compileRegex } from '../core/regex.js';
import type { HookInput } from '../core/input.js';
import type { HookHandler } from '../core/spec.js';
import type { ChatMessage, ModelProvider, ToolCall, ToolDefinition } from '../providers/types.js';
import { refuse } from './protocols/block-for.js';
import { AgentToolRefusedError, HandlerOptionError, HookFailedError } from './errors.js';
import { InvalidHookOutputError } from './protocols/claude-code.js';

/**
 * Claude Code's `agent` hook: a model that may look around the project with
 * read-only tools (Read, Grep, Glob) checks a condition and answers through a
 * `hook_result` tool with `{ ok, reason }`. `ok: false` blocks with "Agent hook
 * condition was not met: <reason>"; no answer within the turn budget is a failure.
 */
export interface AgentHandlerOptions {
  /** The condition; `$ARGUMENTS` is replaced by the input JSON (else the input is appended). */
  prompt: string;
  provider: ModelProvider;
  /** The folder the tools may read; nothing outside it. */
  root: string;
  /** Model turns before giving up (Claude Code: 50). */
  maxTurns?: number;
}

const RESULT_TOOL = 'hook_result';
const MAX_READ_BYTES = 64 * 1024;
const MAX_MATCHES = 200;

const TOOLS: ToolDefinition[] = [
  {
    name: RESULT_TOOL,
    description: 'Return the result of the check. ok: true when the condition is met; ok: false with a reason when it is not.',
    inputSchema: {
      type: 'object',
      properties: { ok: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['ok'],
      additionalProperties: false,
    },
  },
  {
    name: 'Read',
    description: 'Read a text file of the project (first 64 KB).',
    inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
  {
    name: 'Glob',
    description: 'List project files whose path matches a glob (e.g. "src/**/*.ts").',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
  {
    name: 'Grep',
    description: 'Search project files for a regular expression; returns path:line: text.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, glob: { type: 'string' } }, required: ['pattern'] },
  },
];

function fillPrompt(template: string, input: HookInput): string {
  const json = JSON.stringify(input);
  return template.includes('$ARGUMENTS') ? template.replaceAll('$ARGUMENTS', json) : `${template}\n\nHook input:\n${json}`;
}

/** A path inside the root, or an error: the agent reads the project and nothing else. */
function inside(root: string, file: unknown): string {
  if (typeof file !== 'string' || file === '') throw new AgentToolRefusedError('a path is required');
  const abs = path.resolve(root, file);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw new AgentToolRefusedError(`${file} is outside the project`);
  return abs;
}

async function* walk(dir: string, depth = 0): AsyncGenerator<string> {
  if (depth > 12) return;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full, depth + 1);
    else if (entry.isFile()) yield full;
  }
}

async function matching(root: string, glob: string | undefined): Promise<string[]> {
  const test = glob ? picomatch()(glob, { dot: true }) : () => true;
  const out: string[] = [];
  for await (const file of walk(root)) {
    const rel = path.relative(root, file);
    if (test(rel)) out.push(rel);
    if (out.length >= 5000) break;
  }
  return out.sort();
}

async function runTool(call: ToolCall, root: string): Promise<string> {
  const input = call.input;
  if (call.name === 'Read') {
    const file = inside(root, input.file_path);
    if ((await stat(file)).size > MAX_READ_BYTES) return `${(await readFile(file, 'utf8')).slice(0, MAX_READ_BYTES)}\n[cut at 64 KB]`;
    return await readFile(file, 'utf8');
  }
  if (call.name === 'Glob') return (await matching(root, String(input.pattern ?? ''))).join('\n') || '(no files)';
  if (call.name === 'Grep') {
    // RE2: a pattern the model writes cannot hang the hook.
    const re = compileRegex(String(input.pattern ?? ''));
    const hits: string[] = [];
    for (const rel of await matching(root, typeof input.glob === 'string' ? input.glob : undefined)) {
      const text = await readFile(path.join(root, rel), 'utf8').catch(() => '');
      text.split('\n').forEach((line, i) => {
        if (hits.length < MAX_MATCHES && re.test(line)) hits.push(`${rel}:${i + 1}: ${line.slice(0, 300)}`);
      });
      if (hits.length >= MAX_MATCHES) break;
    }
    return hits.join('\n') || '(no matches)';
  }
  throw new AgentToolRefusedError(`unknown tool ${call.name}; the tools are Read, Glob, Grep and ${RESULT_TOOL}`);
}

export function agentHandler(options: AgentHandlerOptions): HookHandler {
  if (typeof options?.prompt !== 'string' || options.prompt.trim() === '')
    throw new HandlerOptionError('agent hook: `prompt` must be a non-empty string');
  if (!options.provider || typeof options.provider.complete !== 'function')
    throw new HandlerOptionError('agent hook: `provider` must be a ModelProvider');
  const root = path.resolve(options.root);
  const maxTurns = options.maxTurns ?? 50;

  return async (input, ctx) => {
    const event = canonicalEvent(typeof input.hook_event_name === 'string' ? input.hook_event_name : '');
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content:
          `You are evaluating a ${event} hook. Check the condition in the user message; use the read-only tools to inspect the project (${root}) if needed, ` +
          `in as few steps as possible. When done, call ${RESULT_TOOL} with ok: true if the condition is met, or ok: false and a reason if it is not.`,
      },
      { role: 'user', content: fillPrompt(options.prompt, input) },
    ];
    for (let turn = 0; turn < maxTurns; turn++) {
      const response = await options.provider.complete({ messages, tools: TOOLS, maxTokens: 1024, signal: ctx.signal });
      const result = response.toolCalls.find((c) => c.name === RESULT_TOOL);
      if (result) {
        ctx.annotate({ model: `${options.provider.name}:${options.provider.model}`, turns: turn + 1 });
        if (typeof result.input.ok !== 'boolean')
          throw new InvalidHookOutputError(`agent hook: ${RESULT_TOOL} needs a boolean ok, got ${JSON.stringify(result.input)}`);
        if (result.input.ok) return undefined;
        const reason = typeof result.input.reason === 'string' ? result.input.reason : 'no reason given';
        return refuse(event, `Agent hook condition was not met: ${reason}`);
      }
      if (response.toolCalls.length === 0) throw new HookFailedError(`agent hook: the model ended without calling ${RESULT_TOOL}`);
      messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
      for (const call of response.toolCalls) {
        try {
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: await runTool(call, root) });
        } catch (error) {
          messages.push({
            role: 'tool',
            toolCallId: call.id,
            name: call.name,
            content: `Error: ${(error as Error).message}`,
            isError: true,
          });
        }
      }
    }
    throw new HookFailedError(`agent hook: no result within ${maxTurns} turns`);
  };
}
