import {
  blockingErrorBlocks,
  isMcpToolName,
  isMissingScript,
  outputFitsTool,
  plainStdoutIsContext,
  plainStdoutIsWorktreePath,
  readClaudeCodeStdout,
  validateClaudeCodeOutput,
  type ClaudeCodeJsonOutput,
  type StdoutReading,
} from '../../compat/claude-code.js';
import { context } from '../../core/results.js';
import type { HookInput } from '../../core/input.js';
import type { HandlerReturn } from '../../core/spec.js';
import { refuse } from './block-for.js';
import type { Protocol } from './types.js';
import { HookwiseError } from '../../core/errors.js';
import { HookFailedError } from '../errors.js';

export type { StdoutReading };

/** A hook printed something that cannot be read as an answer (a cut JSON answer, a non-JSON HTTP body). */
export class InvalidHookOutputError extends HookwiseError {
  override readonly code = 'INVALID_HOOK_OUTPUT';
}

function firstLine(text: string, max = 300): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

/** Claude Code's reading of a hook's stdout: JSON object, plain text or empty. */
export function parseClaudeCodeStdout(stdout: string): StdoutReading {
  return readClaudeCodeStdout(stdout);
}

/**
 * A JSON answer of a Claude Code settings hook, read as Claude Code 2.1.197 reads it:
 * `{"async": true}` is no opinion; the rest must fit Claude Code's schema (else a
 * non-blocking error: InvalidResultError), fields Claude Code does not know are dropped,
 * a hookSpecificOutput naming another event is an error, and `decision: "block"` is
 * dropped where Claude Code ignores blocking errors (SessionStart, ...).
 */
export function readClaudeCodeJson(value: Record<string, unknown>, event: string, input?: HookInput): ClaudeCodeJsonOutput | undefined {
  if (value.async === true) return undefined;
  const output = validateClaudeCodeOutput(value, { strict: false, event: event || undefined });
  const specific = output.hookSpecificOutput;
  const toolName = input?.tool_name;
  // Claude Code applies updatedMCPToolOutput to MCP tools only, and an updatedToolOutput that does not fit the tool's output not at all.
  if (specific?.updatedMCPToolOutput !== undefined && !isMcpToolName(toolName)) delete specific.updatedMCPToolOutput;
  if (specific?.updatedToolOutput !== undefined && !outputFitsTool(input?.tool_response, specific.updatedToolOutput, toolName))
    delete specific.updatedToolOutput;
  if (output.decision === 'block' && !blockingErrorBlocks(event)) {
    delete output.decision;
    delete output.reason;
  }
  return output;
}

/**
 * What a successful answer means: a JSON object is Claude Code output; plain text is
 * context on SessionStart, UserPromptSubmit and the like, the worktree's path on
 * WorktreeCreate, and ignored elsewhere; empty is no opinion.
 */
export function answerOf(reading: StdoutReading, event: string, input?: HookInput): HandlerReturn {
  if (reading.type === 'json') return readClaudeCodeJson(reading.value, event, input);
  if (reading.type === 'text' && plainStdoutIsContext(event)) return context(reading.text);
  if (reading.type === 'text' && plainStdoutIsWorktreePath(event)) {
    return { hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: reading.text } };
  }
  return undefined;
}

/**
 * An HTTP hook's 2xx body: Claude Code wants JSON there (an empty body is `{}`);
 * plain text or broken JSON is a non-blocking error.
 */
export function readHttpBody(body: string, event: string, input?: HookInput): HandlerReturn {
  const text = body.trim();
  if (text === '') return undefined;
  const reading = readClaudeCodeStdout(text);
  if (reading.type !== 'json') throw new InvalidHookOutputError(`HTTP hook must return JSON, got: ${firstLine(text, 200)}`);
  return readClaudeCodeJson(reading.value, event, input);
}

/** Claude Code's command protocol, as of Claude Code 2.1.197. */
export const claudeCodeProtocol: Protocol = {
  name: 'claude-code',

  stdin(input) {
    return JSON.stringify(input);
  },

  read({ exitCode, stdout, stderr, stdoutTruncated }, event, options) {
    const reading = readClaudeCodeStdout(stdout);
    if (stdoutTruncated && reading.type === 'text' && reading.text.startsWith('{')) {
      // Claude Code would have read it all; what a cut answer said cannot be known.
      throw new InvalidHookOutputError(`hook printed more JSON than the output limit; the answer was cut and cannot be read`);
    }
    if (reading.type === 'json') {
      // A JSON object decides on every exit code; exit 2 adds stderr as the block when the JSON did not block.
      const output = readClaudeCodeJson(reading.value, event, options?.input);
      if (exitCode !== 2 || options?.asyncRewake || !blockingErrorBlocks(event) || output === undefined) return output;
      if (output.decision === 'block' || output.hookSpecificOutput?.permissionDecision === 'deny') return output;
      return { ...output, decision: 'block', reason: stderr.trim() || 'No stderr output' };
    }
    if (exitCode === 0) return answerOf(reading, event, options?.input);
    if (exitCode === 2) {
      const reason = stderr.trim();
      if (options?.asyncRewake) return reason ? context(reason) : undefined;
      if (isMissingScript(event, stdout, stderr, options?.plugin)) {
        throw new HookFailedError(
          `hook script appears to be missing: exited 2 with: ${firstLine(stderr)} (treated as a non-blocking error, as Claude Code does)`,
        );
      }
      // SessionStart and the like: "blocking errors are ignored", shown to the user as an error.
      if (!blockingErrorBlocks(event))
        throw new HookFailedError(
          `exited with code 2 on ${event}, where Claude Code ignores blocking errors${reason ? `: ${firstLine(reason)}` : ''}`,
        );
      return refuse(event, reason || 'No stderr output');
    }
    const detail = firstLine(stderr) || firstLine(stdout);
    throw new HookFailedError(`exited with code ${exitCode}${detail ? `: ${detail}` : ''}`);
  },
};
