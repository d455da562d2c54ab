import type { AuditRow } from './query.js';

export interface TableColours {
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
}

const plain: TableColours = { dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s };
const COLUMNS = ['seq', 'time', 'session', 'kind', 'event', 'decision', 'tool', 'detail'] as const;
const DETAIL_WIDTH = 60;

/** The readable listing of `hookwise audit`: one aligned line per row, a header, no trailing spaces. */
export function formatAuditTable(rows: AuditRow[], colours: TableColours = plain): string[] {
  const cells = rows.map((r) => [String(r.seq), r.ts, r.sessionId, r.kind, r.event ?? '-', r.decision ?? '-', r.tool ?? '-', detailOf(r)]);
  const widths = COLUMNS.map((name, i) => Math.max(name.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[], colour: (value: string, column: number) => string) =>
    values
      .map((v, i) => colour(i === values.length - 1 ? v : v.padEnd(widths[i]!), i))
      .join('  ')
      .trimEnd();
  const decisionColour = (d: string, s: string) =>
    d.startsWith('deny')
      ? colours.red(s)
      : d.startsWith('allow')
        ? colours.green(s)
        : d.startsWith('ask') || d.startsWith('defer')
          ? colours.yellow(s)
          : s;
  return [
    line(COLUMNS, (v) => colours.bold(v)),
    ...cells.map((c) => line(c, (v, i) => (i === 5 ? decisionColour(c[5]!, v) : i === 0 || i === 1 ? colours.dim(v) : v))),
  ];
}

/** The one thing worth seeing at a glance: why an outcome decided, or what a tool was called with. */
/** What a step changed on disk, when a checkpoint guard recorded it (docs/security.md#undo): `step 4 +1 ~0 -2, 3.1 kB`. */
function stepChanges(data: Record<string, unknown>): string | undefined {
  const hooks = Array.isArray(data.hooks) ? (data.hooks as Record<string, unknown>[]) : [];
  const hook = hooks.find((h) => typeof h.step === 'number' && typeof (h.changes as { summary?: unknown })?.summary === 'string');
  if (!hook) return undefined;
  const lost = (hook.changes as { lost?: unknown[] }).lost?.length;
  return `step ${hook.step} ${(hook.changes as { summary: string }).summary}${lost ? `, LOST ${lost}` : ''}`;
}

function detailOf(row: AuditRow): string {
  const data = (row.data ?? {}) as Record<string, unknown>;
  let text = '';
  if (typeof data.reason === 'string') text = data.reason;
  else if (row.kind === 'tool' && data.tool_input !== undefined) text = JSON.stringify(data.tool_input);
  else if (data.input && typeof data.input === 'object' && (data.input as Record<string, unknown>).tool_input !== undefined) {
    text = JSON.stringify((data.input as Record<string, unknown>).tool_input);
  }
  const changed = stepChanges(data);
  if (changed) text = `${changed}: ${text}`;
  text = text.replace(/\s+/g, ' ');
  return text.length > DETAIL_WIDTH ? `${text.slice(0, DETAIL_WIDTH - 1)}…` : text;
}
