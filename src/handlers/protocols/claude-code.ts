import { context, type ClaudeCodeJsonOutput } from '../../core/results.js';
import type { HandlerReturn } from '../../core/spec.js';
import { refuse } from './block-for.js';
import type { Protocol } from './types.js';

/** Events on which Claude Code adds a hook's plain stdout to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT = new Set(['SessionStart', 'UserPromptSubmit']);

/** A hook printed something that starts like JSON but is not a JSON object. */
export class InvalidHookOutputError extends Error {}

function firstLine(text: string, max = 300): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

export type StdoutReading = { type: 'empty' } | { type: 'json'; value: ClaudeCodeJsonOutput } | { type: 'text'; text: string };

/**
 * Claude Code's reading of a hook's stdout (or an HTTP hook's 2xx body): JSON when,
 * after leading whitespace, it starts with `{` (then it must be a valid JSON object),
 * else plain text, or empty.
 */
export function parseClaudeCodeStdout(stdout: string): StdoutReading {
  const text = stdout.trim();
  if (text === '') return { type: 'empty' };
  if (!text.startsWith('{')) return { type: 'text', text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidHookOutputError(`hook printed invalid JSON (${(error as Error).message}): ${firstLine(text)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidHookOutputError(`hook printed JSON that is not an object: ${firstLine(text)}`);
  }
  return { type: 'json', value: parsed as ClaudeCodeJsonOutput };
}

/**
 * What a successful answer means: a JSON object is Claude Code output for the core
 * to interpret; plain text is context on SessionStart and UserPromptSubmit and
 * ignored elsewhere; empty is no opinion.
 */
export function answerOf(reading: StdoutReading, event: string): HandlerReturn {
  if (reading.type === 'json') return reading.value;
  if (reading.type === 'text' && PLAIN_STDOUT_IS_CONTEXT.has(event)) return context(reading.text);
  return undefined;
}

/** Claude Code's command protocol, as of Claude Code 2.1.2xx. */
export const claudeCodeProtocol: Protocol = {
  name: 'claude-code',

  stdin(input) {
    return JSON.stringify(input);
  },

  read({ exitCode, stdout, stderr }, event, options) {
    if (exitCode === 2) {
      // Exit 2 blocks with stderr as the reason, whatever stdout says.
      const reason = stderr.trim();
      if (options?.asyncRewake) return reason ? context(reason) : undefined;
      return refuse(event, reason || 'blocked by hook (exit code 2)');
    }
    const reading = parseClaudeCodeStdout(stdout);
    // A JSON object decides on every exit code (exit 1 with a deny object blocks).
    if (reading.type === 'json') return reading.value;
    if (exitCode !== 0) {
      const detail = firstLine(stderr) || firstLine(stdout);
      throw new Error(`exited with code ${exitCode}${detail ? `: ${detail}` : ''}`);
    }
    return answerOf(reading, event);
  },
};
