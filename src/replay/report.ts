import path from 'node:path';
import type { Difference, ReplaySummary } from './replay.js';

const MAX_INPUT = 60;

function inputText(input: Record<string, unknown>): string {
  const shown =
    typeof input.command === 'string' ? input.command : typeof input.file_path === 'string' ? input.file_path : JSON.stringify(input);
  return shown.length > MAX_INPUT ? `${shown.slice(0, MAX_INPUT - 1)}…` : shown;
}

/** One difference as a table row: session, turn (or audit seq), tool, what changed, input, why. */
export function tableRow(d: Difference): string[] {
  const where = d.call.turn !== null ? `turn ${d.call.turn}` : `seq ${d.call.at}`;
  const why =
    d.now === 'refused' || d.now === 'asked' ? (d.reason ?? '') : d.call.happened === 'refused' ? `was: ${d.call.reason ?? ''}` : '';
  return [
    d.call.sessionId.slice(0, 8),
    where,
    d.call.tool,
    d.change,
    inputText(d.call.toolInput),
    `${d.hook ? `${d.hook}: ` : ''}${why}`.trim(),
  ];
}

export function formatTable(rows: string[][]): string {
  const header = ['session', 'where', 'tool', 'change', 'input', 'hook / reason'];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return `${all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}

/** One JSON object per difference (`--json`). */
export function jsonLine(d: Difference): string {
  return `${JSON.stringify({
    session: d.call.sessionId,
    turn: d.call.turn,
    source: d.call.source,
    at: d.call.at,
    tool: d.call.tool,
    toolUseId: d.call.toolUseId ?? null,
    input: d.call.toolInput,
    was: d.call.happened,
    now: d.now,
    change: d.change,
    reason: d.reason,
    hook: d.hook,
    updatedInput: d.updatedInput,
  })}\n`;
}

/**
 * The line printed when no call was decided differently. It says what the exit status
 * says: unreadable lines (exit 2) and an empty replay are not "no differences".
 */
export function headline(s: ReplaySummary): string {
  if (s.problems > 0)
    return `no differences among the ${s.calls} calls replayed, but ${s.problems} line${s.problems === 1 ? '' : 's'} could not be read (see above): the replay is incomplete`;
  if (s.calls === 0)
    return `nothing replayed: no tool call was found in the sources${s.skipped > 0 ? ` (${s.skipped} not replayable, see above)` : ''}`;
  return "no differences: today's policy decides every replayed call as recorded";
}

export function summaryLine(s: ReplaySummary, seconds: number): string {
  const rate = seconds > 0 ? ` (${Math.round(s.calls / seconds)} calls/s)` : '';
  return `replayed ${s.calls} tool calls${rate}: ${s.same} decided as recorded, ${s.differences} differently; ${s.skipped} not replayed, ${s.problems} unreadable`;
}

/**
 * `--to-tests FILE`: a policy test file (YAML) that pins today's decision for each
 * difference, for a person to accept case by case (docs/testing.md).
 */
export async function toTests(differences: Difference[], file: string, policy: string[] | undefined): Promise<string> {
  const cases = differences.map((d) => ({
    name: `${d.call.sessionId.slice(0, 8)} ${d.call.turn !== null ? `turn ${d.call.turn}` : `seq ${d.call.at}`}: ${d.call.tool} ${inputText(d.call.toolInput)} (${d.change})`,
    event: 'PreToolUse',
    input: { tool_name: d.call.tool, tool_input: d.call.toolInput },
    expect: {
      ...(d.now === 'refused' ? { decision: 'deny' } : d.now === 'asked' ? { decision: 'ask' } : { blocked: false }),
      ...(d.now === 'rewritten' ? { updatedInput: d.updatedInput } : {}),
      hook: d.hook,
    },
  }));
  const relPolicy = policy?.map((p) => path.relative(path.dirname(path.resolve(file)), p));
  const data = relPolicy?.length ? { policy: relPolicy, cases } : { cases };
  if (file.endsWith('.json')) return `${JSON.stringify(data, null, 2)}\n`;
  return (await import('yaml')).stringify(data);
}
