export { transcriptCalls } from './transcript.js';
export { auditCalls, type AuditSelection } from './audit-source.js';
export { replayCalls, type Difference, type ReplayOptions, type ReplaySummary, type ReplayListener } from './replay.js';
export { formatTable, headline, jsonLine, summaryLine, tableRow, toTests } from './report.js';
export type { RecordedCall, SourceItem, SourceBatch, SourceProblem, Happened } from './types.js';
