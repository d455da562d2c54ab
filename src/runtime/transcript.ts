import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChatMessage } from '../providers/types.js';

/**
 * One line of the JSONL transcript. Messages use Claude Code's shape (`type` is the
 * role, `message` the message) so transcript-reading hook scripts find what they
 * expect; hook fires and other run events are lines of their own.
 */
export type TranscriptEntry =
  | { type: 'system' | 'user' | 'assistant' | 'tool'; timestamp: string; session_id: string; agent_id?: string; message: ChatMessage }
  | {
      type: 'hook';
      timestamp: string;
      session_id: string;
      agent_id?: string;
      event: string;
      decision: string | null;
      blocked: boolean;
      reason: string | null;
      stop: boolean;
      hooks: string[];
    }
  | {
      type: 'state_rewrite';
      timestamp: string;
      session_id: string;
      agent_id?: string;
      event: string;
      hook: string;
      fields: string[];
      message_count: number;
    }
  | { type: 'compaction'; timestamp: string; session_id: string; agent_id?: string; summary: string; before: number; after: number }
  | { type: 'result'; timestamp: string; session_id: string; agent_id?: string; stop_reason: string; reason: string | null; steps: number };

type Body<T> = T extends unknown ? Omit<T, 'timestamp' | 'session_id' | 'agent_id'> : never;

/**
 * An append-only JSONL file, kept open for the run. Each line is handed to the
 * kernel with one synchronous write before `append` returns: a hook reading
 * `transcript_path` sees every line written before it was fired, and a crash or
 * a stop signal loses nothing that was appended (no buffer in the process).
 * Opening the file once instead of per line is what makes it cheap.
 */
export class Transcript {
  private fd: number | null = null;

  constructor(
    readonly path: string,
    private readonly sessionId: string,
    private readonly agentId?: string,
  ) {
    mkdirSync(dirname(path), { recursive: true });
  }

  /** A transcript for a subagent: same session, its own file, its lines tagged with its agent id. */
  forAgent(agentId: string, file: string): Transcript {
    return new Transcript(file, this.sessionId, agentId);
  }

  append(entry: Body<TranscriptEntry>): void {
    const line: Record<string, unknown> = { ...entry, timestamp: new Date().toISOString(), session_id: this.sessionId };
    if (this.agentId !== undefined) line.agent_id = this.agentId;
    this.fd ??= openSync(this.path, 'a');
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off);
  }

  /** Release the file; a later append opens it again. */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  message(message: ChatMessage): void {
    this.append({ type: message.role, message } as Body<TranscriptEntry>);
  }

  /** Every entry written so far (also the lines of earlier runs of a resumed session). */
  read(): TranscriptEntry[] {
    return readTranscript(this.path);
  }
}

export function readTranscript(file: string): TranscriptEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptEntry);
}
