import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ModelError, type ChatMessage, type ModelProvider, type ModelRequest, type ModelResponse } from './types.js';
import { HookwiseError } from '../core/errors.js';

/**
 * A provider that replays model turns from a script: for offline runs, demos and
 * tests. Deterministic: tool call ids come from the turn index, usage from the
 * sizes of the messages unless a turn gives it.
 */
const usageSchema = z.union([
  z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) }),
  z.object({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) }),
]);

const expectSchema = z
  .object({
    /** Some tool result since the last assistant turn contains this. */
    toolResultContains: z.string().optional(),
    /** No tool result since the last assistant turn contains this. */
    toolResultExcludes: z.string().optional(),
    /** The last tool result is (true) or is not (false) an error. */
    toolResultIsError: z.boolean().optional(),
    /** The last user message contains this. */
    userMessageContains: z.string().optional(),
  })
  .strict();

const turnSchema = z
  .object({
    text: z.string().optional(),
    toolCalls: z
      .array(
        z.object({ name: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}), id: z.string().optional() }).strict(),
      )
      .optional(),
    usage: usageSchema.optional(),
    expect: expectSchema.optional(),
    /** Fail this turn the way a provider would (e.g. a 429 rate limit). */
    error: z
      .object({
        kind: z.enum(['rate_limit', 'timeout', 'http', 'network', 'invalid_response']),
        message: z.string().optional(),
        status: z.number().int().optional(),
        retryAfterMs: z.number().int().min(0).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const turnsSchema = z.array(turnSchema);
const documentSchema = z.object({ model: z.string().optional(), final: z.string().optional(), turns: turnsSchema }).strict();

export type ScriptTurn = z.input<typeof turnSchema>;
export interface Script {
  model?: string;
  /** The answer once the turns run out. Default "Done." */
  final?: string;
  turns: ScriptTurn[];
}

export class ScriptError extends HookwiseError {
  override readonly code = 'SCRIPT';
  constructor(where: string, why: string) {
    super(`${where}: ${why}`);
  }
}

export interface ScriptedProvider extends ModelProvider {
  /** Turns answered so far (the next turn's index). */
  readonly calls: number;
  /** Requests received, in order (copies of their messages). */
  readonly requests: ChatMessage[][];
}

/** A provider that answers with the given turns, in order, then with a plain final text. */
export function scriptedProvider(script: Script | ScriptTurn[], source = 'script'): ScriptedProvider {
  // Pick the form first, so an error names the field and not "invalid union".
  const parsed = Array.isArray(script) ? turnsSchema.safeParse(script) : documentSchema.safeParse(script);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ScriptError(source, `invalid script at ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  }
  const value = parsed.data;
  const { turns, model, final } = Array.isArray(value) ? { turns: value, model: undefined, final: undefined } : value;
  return new Replayer(turns, model ?? 'scripted', final ?? 'Done.', source);
}

/** Load a script from a JSON or YAML file (an array of turns, or `{ model?, final?, turns }`). */
export function loadScript(file: string): ScriptedProvider {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScriptError(file, `cannot read script: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ScriptError(file, `not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  return scriptedProvider(data as Script, file);
}

type Turn = z.output<typeof turnSchema>;

class Replayer implements ScriptedProvider {
  readonly name = 'scripted';
  calls = 0;
  readonly requests: ChatMessage[][] = [];

  constructor(
    private readonly turns: Turn[],
    readonly model: string,
    private readonly final: string,
    private readonly source: string,
  ) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal?.aborted) throw new ModelError('aborted', 'aborted');
    const index = this.calls++;
    this.requests.push(request.messages.map((m) => ({ ...m })));
    const turn = this.turns[index];
    if (!turn) return { text: this.final, toolCalls: [], usage: estimatedUsage(request.messages, this.final), stopReason: 'end' };
    if (turn.expect) this.check(index, turn.expect, request.messages);
    if (turn.error) {
      const e = turn.error;
      throw new ModelError(
        e.message ?? `scripted ${e.kind} error (turn ${index})`,
        e.kind,
        e.status ?? (e.kind === 'rate_limit' ? 429 : undefined),
        e.retryAfterMs,
      );
    }
    const text = turn.text ?? '';
    const toolCalls = (turn.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${index}_${i}`,
      name: call.name,
      input: call.input,
    }));
    const usage = turn.usage
      ? 'inputTokens' in turn.usage
        ? turn.usage
        : { inputTokens: turn.usage.input_tokens, outputTokens: turn.usage.output_tokens }
      : estimatedUsage(request.messages, text + JSON.stringify(toolCalls));
    return { text, toolCalls, usage, stopReason: toolCalls.length ? 'tool_use' : 'end' };
  }

  /** A failed expectation is a provider error naming the turn, so the run ends with it. */
  private check(index: number, expect: NonNullable<Turn['expect']>, messages: ChatMessage[]): void {
    const fail = (why: string) => {
      throw new ModelError(`${this.source} turn ${index}: expectation failed: ${why}`, 'invalid_response');
    };
    const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
    const results = messages.slice(lastAssistant + 1).filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
    const shown = results
      .map((r) => r.content)
      .join(' | ')
      .slice(0, 300);
    if (expect.toolResultContains !== undefined && !results.some((r) => r.content.includes(expect.toolResultContains!))) {
      fail(`no tool result contains ${JSON.stringify(expect.toolResultContains)}; got: ${shown || '(no tool results)'}`);
    }
    if (expect.toolResultExcludes !== undefined && results.some((r) => r.content.includes(expect.toolResultExcludes!))) {
      fail(`a tool result contains ${JSON.stringify(expect.toolResultExcludes)}: ${shown}`);
    }
    if (expect.toolResultIsError !== undefined) {
      const last = results.at(-1);
      if (!last) fail('expected a tool result; there is none');
      else if ((last.isError === true) !== expect.toolResultIsError)
        fail(`expected the last tool result ${expect.toolResultIsError ? '' : 'not '}to be an error; got: ${last.content.slice(0, 300)}`);
    }
    if (expect.userMessageContains !== undefined) {
      const user = [...messages].reverse().find((m) => m.role === 'user');
      if (!user?.content.includes(expect.userMessageContains)) {
        fail(
          `the last user message does not contain ${JSON.stringify(expect.userMessageContains)}; got: ${user?.content.slice(0, 300) ?? '(none)'}`,
        );
      }
    }
  }
}

function estimatedUsage(messages: ChatMessage[], output: string): { inputTokens: number; outputTokens: number } {
  const input = messages.reduce(
    (n, m) => n + m.content.length + (m.role === 'assistant' && m.toolCalls ? JSON.stringify(m.toolCalls).length : 0),
    0,
  );
  return { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(output.length / 4) };
}
