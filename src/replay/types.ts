/** What a host did with a tool call, as hookwise's answer shaped it. */
export type Happened = 'allowed' | 'refused' | 'asked' | 'rewritten';

/** One recorded tool call, from a transcript or the audit trail, ready to fire again. */
export interface RecordedCall {
  /** The transcript file or audit store it came from. */
  source: string;
  /** Line of the transcript (1-based) or seq of the audit row. */
  at: number;
  sessionId: string;
  /** The user turn it belongs to (1-based); null when the source has no turns (the audit trail). */
  turn: number | null;
  tool: string;
  toolInput: Record<string, unknown>;
  toolUseId: string | undefined;
  cwd: string | undefined;
  permissionMode: string | undefined;
  happened: Happened;
  /** The refusal text the model saw, or the recorded reason. */
  reason: string | null;
  /** The rewritten input, when the source records it (the audit trail does; transcripts do not). */
  updatedInput: Record<string, unknown> | null;
  /** Whether the source can tell a rewrite from an allow. */
  recordsRewrites: boolean;
}

/** A line or row that could not be read: reported with where it is, and the replay goes on. */
export interface SourceProblem {
  source: string;
  at: number;
  problem: string;
}

export type SourceItem = { call: RecordedCall } | { problem: SourceProblem } | { skipped: SourceProblem };

/** Sources yield items in batches: one promise per batch, not per row (replay reads 100,000s of rows). */
export type SourceBatch = SourceItem[];
