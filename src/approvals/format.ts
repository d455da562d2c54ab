import type { TableColours } from '../audit/table.js';
import { decisionOf } from '../audit/approval-record.js';
import type { Approval } from './types.js';

const plain: TableColours = { dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s };
const COLUMNS = ['id', 'created', 'state', 'by', 'session', 'tool', 'input'] as const;
const INPUT_WIDTH = 60;

/** The listing of `hookwise approvals`: one aligned line per approval, a header, no trailing spaces. */
export function formatApprovalTable(approvals: Approval[], colours: TableColours = plain): string[] {
  const cells = approvals.map((a) => [
    a.id,
    a.createdAt,
    stateOf(a),
    a.answeredBy ?? '-',
    a.sessionId,
    a.tool ?? '-',
    inputOf(a, INPUT_WIDTH),
  ]);
  const widths = COLUMNS.map((name, i) => Math.max(name.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[], colour: (value: string, column: number) => string) =>
    values
      .map((v, i) => colour(i === values.length - 1 ? v : v.padEnd(widths[i]!), i))
      .join('  ')
      .trimEnd();
  return [
    line(COLUMNS, (v) => colours.bold(v)),
    ...approvals.map((a, row) => line(cells[row]!, (v, i) => (i === 2 ? stateColour(a, colours)(v) : i === 1 ? colours.dim(v) : v))),
  ];
}

/** `hookwise approvals show`: every field, one per line. */
export function describeApproval(a: Approval): string[] {
  const lines: Array<[string, string | null]> = [
    ['id', a.id],
    ['state', a.state === 'pending' ? `pending (expires ${a.expiresAt}, then ${a.onExpiry})` : stateOf(a)],
    ['tenant', a.tenant],
    ['session', a.sessionId],
    ['event', a.event],
    ['tool', a.tool],
    ['input', a.input === null ? null : JSON.stringify(a.input)],
    ['tool_use_id', a.toolUseId],
    ['hook', a.hook],
    ['reason', a.reason],
    ['created', a.createdAt],
    [
      'answered',
      a.answeredAt === null ? null : `${a.answeredAt} by ${a.answeredBy}${a.scope === 'session' ? ', for the rest of the session' : ''}`,
    ],
    ['note', a.note],
    ['key', a.key],
  ];
  const present = lines.filter((line): line is [string, string] => line[1] !== null);
  const width = Math.max(...present.map(([name]) => name.length)) + 1;
  return present.map(([name, value]) => `${`${name}:`.padEnd(width)} ${value}`);
}

/** An expiry shows what it decided: `expired (deny)`. */
function stateOf(a: Approval): string {
  if (a.state === 'expired') return `expired (${a.onExpiry})`;
  return a.scope === 'session' ? `${a.state} (session)` : a.state;
}

function stateColour(a: Approval, colours: TableColours): (s: string) => string {
  const decision = decisionOf(a);
  return decision === 'approve' ? colours.green : decision === 'deny' ? colours.red : colours.yellow;
}

/** What the person decides on: a shell command as it is, any other input as JSON. */
function inputOf(a: Approval, width: number): string {
  if (a.input === null) return a.reason ?? '';
  const command = a.input.command;
  let text = typeof command === 'string' ? command : JSON.stringify(a.input);
  text = text.replace(/\s+/g, ' ');
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
