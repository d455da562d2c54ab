import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PolicyTestError } from '../policy-test/errors.js';
import type { Happened, RecordedCall, SourceBatch, SourceItem } from './types.js';

interface ToolUse {
  at: number;
  id: string;
  name: string;
  input: Record<string, unknown>;
  sessionId: string;
  turn: number;
  cwd: string | undefined;
  permissionMode: string | undefined;
}

/**
 * Claude Code's tool errors that are not a hook's refusal. Some say the tool ran and
 * failed (a command's non-zero exit, a file the tool could not open): the call went
 * ahead, so it is replayed as allowed, and a refusal of it today is a difference.
 * The others say Claude Code itself refused before anything ran (input validation,
 * a person's or the permission system's no, an interruption): those are not replayed.
 * Claude Code 2.1.197 writes a hook's refusal as a tool_result with `is_error: true`
 * and the hook's reason as its text (checked with real sessions, test/replay-claude).
 */
const RAN_AND_FAILED = [/^Exit code \d+/, /^Error: (ENOENT|EACCES|EISDIR)/];
const REFUSED_BY_CLAUDE_CODE = [
  /^<tool_use_error>/,
  /^The user doesn't want to proceed/,
  /^Permission to use \S+ has been denied/,
  /^Claude requested permissions/,
  /^\[Request interrupted/,
  /^File (does not exist|has not been read)/,
];

/**
 * The tool calls of a Claude Code session transcript (the JSONL file Claude Code keeps
 * per session under `~/.claude/projects/<project>/`): each assistant `tool_use` paired
 * with the user `tool_result` that answered it. A line that is not JSON is reported
 * with its number and the rest is read.
 */
export async function* transcriptCalls(file: string): AsyncGenerator<SourceBatch> {
  for await (const item of transcriptItems(file)) yield [item];
}

async function* transcriptItems(file: string): AsyncGenerator<SourceItem> {
  if (!existsSync(file)) throw new PolicyTestError(file, 'no such transcript file');
  if (statSync(file).isDirectory()) throw new PolicyTestError(file, 'is a folder; name the session .jsonl files in it');
  const pending = new Map<string, ToolUse>();
  /** Each prompt id with the turn it started. */
  const prompts = new Map<string, number>();
  let turn = 0;
  let lineNo = 0;
  const permissionMode = { current: undefined as string | undefined };
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let entry: TranscriptEntry;
    try {
      entry = JSON.parse(line) as TranscriptEntry;
    } catch (error) {
      yield { problem: { source: file, at: lineNo, problem: `not JSON (${(error as Error).message.split('\n')[0]})` } };
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      yield { problem: { source: file, at: lineNo, problem: 'not a JSON object' } };
      continue;
    }
    if (typeof entry.permissionMode === 'string') permissionMode.current = entry.permissionMode;
    const content = entry.message?.content;
    if (startsTurn(entry, content, prompts)) turn++;
    if (typeof entry.promptId === 'string' && !prompts.has(entry.promptId)) prompts.set(entry.promptId, turn);
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (entry.type === 'assistant' && block?.type === 'tool_use') {
        if (typeof block.id !== 'string' || typeof block.name !== 'string') {
          yield { problem: { source: file, at: lineNo, problem: 'a tool_use block without an id or a name' } };
          continue;
        }
        const input = typeof block.input === 'object' && block.input !== null ? (block.input as Record<string, unknown>) : {};
        pending.set(block.id, {
          at: lineNo,
          id: block.id,
          name: block.name,
          input,
          sessionId: String(entry.sessionId ?? 'unknown'),
          turn: Math.max(turn, 1),
          cwd: typeof entry.cwd === 'string' ? entry.cwd : undefined,
          permissionMode: permissionMode.current,
        });
      } else if (entry.type === 'user' && block?.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const use = pending.get(block.tool_use_id);
        if (!use) continue;
        pending.delete(block.tool_use_id);
        const text = textOf(block.content);
        const ranAndFailed = block.is_error === true && RAN_AND_FAILED.some((p) => p.test(text));
        const refusedByClaudeCode = block.is_error === true && !ranAndFailed && REFUSED_BY_CLAUDE_CODE.some((p) => p.test(text));
        const refusedByHook = block.is_error === true && !ranAndFailed && !refusedByClaudeCode;
        if (refusedByClaudeCode) {
          yield {
            skipped: {
              source: file,
              at: use.at,
              problem: `${use.name} call ${use.id} was refused by Claude Code itself, not by a hook: it never ran`,
            },
          };
          continue;
        }
        // The result carries its prompt's id: a call made after a prompt queued mid-turn belongs to that prompt.
        const promptTurn = typeof entry.promptId === 'string' ? prompts.get(entry.promptId) : undefined;
        if (promptTurn !== undefined) use.turn = promptTurn;
        yield { call: toCall(file, use, refusedByHook ? 'refused' : 'allowed', refusedByHook ? text : null) };
      }
    }
  }
  for (const use of pending.values())
    yield { skipped: { source: file, at: use.at, problem: `${use.name} call ${use.id} has no recorded result (the session ended first)` } };
}

/**
 * Whether an entry starts a user turn. Claude Code gives each prompt a `promptId`,
 * carried by the prompt and by every tool result of its turn: a new one is a new turn.
 * In a `-p` session fed several prompts (stream-json input, a prompt queued while the
 * agent works) that is the only sign: a prompt queued mid-turn reaches the model
 * without a user text entry of its own. Transcripts without prompt ids count their
 * user text entries.
 */
function startsTurn(entry: TranscriptEntry, content: string | Block[] | undefined, prompts: Map<string, number>): boolean {
  if (typeof entry.promptId === 'string') return !prompts.has(entry.promptId);
  // A transcript that numbers its prompts numbers all of them.
  if (prompts.size > 0) return false;
  return (
    entry.type === 'user' &&
    !entry.isMeta &&
    (typeof content === 'string' || (Array.isArray(content) && content.some((b) => b?.type === 'text')))
  );
}

function toCall(source: string, use: ToolUse, happened: Happened, reason: string | null): RecordedCall {
  return {
    source,
    at: use.at,
    sessionId: use.sessionId,
    turn: use.turn,
    tool: use.name,
    toolInput: use.input,
    toolUseId: use.id,
    cwd: use.cwd,
    permissionMode: use.permissionMode,
    happened,
    reason,
    updatedInput: null,
    recordsRewrites: false,
  };
}

interface Block {
  type?: string;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  is_error?: unknown;
  content?: unknown;
  text?: unknown;
}

interface TranscriptEntry {
  type?: string;
  isMeta?: boolean;
  sessionId?: unknown;
  cwd?: unknown;
  permissionMode?: unknown;
  promptId?: unknown;
  message?: { content?: string | Block[] };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: Block) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
}
