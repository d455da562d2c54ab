import pc from 'picocolors';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import type { RuntimeEvent } from '../runtime/types.js';

/**
 * The live view of what the hooks did: one line per fired event with the hooks
 * that ran, their results and durations; a spinner while a hook is slow; a
 * summary table at the end. Subscribes to the engine, so it sees every outcome.
 */
export interface TimelineOptions {
  out?: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean; columns?: number };
  /** Lines are fitted to this many columns. Default: the terminal's width, else $COLUMNS, else 80. */
  width?: number;
  /** A hook running longer than this gets a spinner (TTY only). */
  spinnerAfterMs?: number;
  /** Events whose outcome is uneventful (no hook ran) are not printed. */
  quiet?: boolean;
}

export interface TimelineSummary {
  /** Every outcome the engine produced, hooks or not. */
  events: number;
  /** Outcomes printed (the others had no hook, or hooks with nothing to say). */
  shown: number;
  /** Outcomes at least one hook ran for: the three counts below add up to this. */
  judged: number;
  allowed: number;
  denied: number;
  rewritten: number;
  stopped: number;
  hookRuns: number;
  hookTimeMs: number;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function verdictLabel(o: Outcome): string {
  if (o.stop) return pc.magenta(`stop: ${o.stopReason ?? ''}`);
  if (o.decision === 'deny' || o.blocked) return pc.red(`${o.decision === 'deny' ? 'deny' : 'block'}: ${o.reason ?? ''}`);
  if (o.retry) return pc.yellow(`retry in ${o.retry.delayMs} ms`);
  if (o.decision === 'ask') return pc.yellow(`ask: ${o.reason ?? ''}`);
  if (o.updatedInput || o.updatedOutput !== null) return pc.cyan('rewritten');
  if (o.decision === 'allow') return pc.green('allow');
  if (o.additionalContext !== null) return pc.cyan('context added');
  return pc.dim('no objection');
}

function subject(input: HookInput, room: number): string {
  if (typeof input.tool_name === 'string') {
    const args = input.tool_input ?? {};
    const detail =
      typeof args.command === 'string'
        ? args.command
        : typeof args.file_path === 'string'
          ? args.file_path
          : typeof args.path === 'string'
            ? args.path
            : '';
    const name = truncate(input.tool_name, room);
    return `${name}${detail && room - name.length > 4 ? ` ${pc.dim(truncate(detail, room - name.length - 1))}` : ''}`;
  }
  if (typeof input.prompt === 'string') return pc.dim(truncate(input.prompt, room));
  if (typeof input.agent_type === 'string') return truncate(input.agent_type, room);
  return '';
}

const ALWAYS_SHOWN = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
]);

/** In quiet mode, events where every hook said nothing are left out (step and model bookkeeping). */
function worthShowing(o: Outcome): boolean {
  if (o.hooks.length === 0) return false;
  if (ALWAYS_SHOWN.has(o.event)) return true;
  return (
    o.blocked ||
    o.stop ||
    o.retry !== null ||
    o.decision !== null ||
    o.additionalContext !== null ||
    o.hooks.some((h) => h.status !== 'ok' || (h.result !== 'none' && h.result !== null))
  );
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, Math.max(0, max - 1))}…` : oneLine;
}

/** A word longer than a line (a path, a hash) is cut into line-sized pieces. */
function chop(word: string, room: number): string[] {
  if (visible(word) <= room) return [word];
  const plain = word.replace(ANSI, '');
  return Array.from({ length: Math.ceil(plain.length / room) }, (_, i) => plain.slice(i * room, (i + 1) * room));
}

// The escape codes picocolors writes.
const ANSI = /\x1b\[[0-9;]*m/g;
const visible = (text: string) => text.replace(ANSI, '').length;

/**
 * Lay out `parts` after a 4-space indent, as many per line as fit in `width`;
 * a part too wide for one line continues on the next, broken at spaces.
 */
function flow(parts: string[], width: number): string {
  const room = width - 4;
  const lines: string[] = [];
  let line = '';
  for (const part of parts.flatMap((p) => (visible(p) > room ? p.split(/\s+/).flatMap((w) => chop(w, room)) : [p]))) {
    if (line && visible(line) + 1 + visible(part) > room) {
      lines.push(line);
      line = part;
    } else line = line ? `${line} ${part}` : part;
  }
  if (line) lines.push(line);
  return lines.map((l) => `    ${l}\n`).join('');
}

export class Timeline {
  readonly summary: TimelineSummary = {
    events: 0,
    shown: 0,
    judged: 0,
    allowed: 0,
    denied: 0,
    rewritten: 0,
    stopped: 0,
    hookRuns: 0,
    hookTimeMs: 0,
  };
  private readonly width: number;
  private readonly out: NonNullable<TimelineOptions['out']>;
  private readonly spinnerAfterMs: number;
  private spinner: { timer: NodeJS.Timeout | undefined; frame: number; label: string; shown: boolean } | undefined;
  /** The progress line: on a TTY it is redrawn in place; elsewhere printed once per key. */
  private progressLine: { key: string; shown: boolean } | undefined;
  private readonly offs: Array<() => void> = [];

  constructor(private readonly options: TimelineOptions = {}) {
    this.out = options.out ?? process.stdout;
    this.spinnerAfterMs = options.spinnerAfterMs ?? 150;
    this.width = Math.max(40, options.width ?? (this.out.isTTY ? this.out.columns : undefined) ?? (Number(process.env.COLUMNS) || 80));
  }

  attach(engine: HookEngine): this {
    // The call as the agent asked for it, not the OS sandbox's line it runs as.
    this.offs.push(engine.on('outcome', (outcome, { received }) => this.onOutcome(outcome, received)));
    this.offs.push(engine.on('hookStart', ({ name, statusMessage }) => this.startSpinner(statusMessage ?? `running ${name}`)));
    this.offs.push(engine.on('hookEnd', () => this.stopSpinner()));
    return this;
  }

  detach(): void {
    for (const off of this.offs.splice(0)) off();
    this.stopSpinner();
  }

  /** A free-form line in the timeline (model text, tool results). */
  note(text: string): void {
    this.stopSpinner();
    this.out.write(pc.dim(flow([text], this.width)));
  }

  /**
   * A line that follows something long (a tool call waiting for an approval): on a
   * TTY it is redrawn in place until the next line; elsewhere only its first text
   * per `key` is printed, so a log gets one line, not one per second.
   */
  progress(key: string, text: string): void {
    this.stopSpinner();
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${pc.yellow('…')} ${truncate(text, this.width - 3)}`);
      this.progressLine = { key, shown: true };
      return;
    }
    if (this.progressLine?.key === key) return;
    this.progressLine = { key, shown: false };
    this.out.write(pc.yellow(flow([text], this.width)));
  }

  private onOutcome(outcome: Outcome, input: HookInput): void {
    this.stopSpinner();
    const ran = outcome.hooks.filter((h) => h.status !== 'skipped');
    this.count(outcome, ran);
    if (this.options.quiet && !worthShowing(outcome)) return;
    this.summary.shown++;
    const skipped = outcome.hooks.length - ran.length;
    const hooks = ran.map((h) => {
      const label = h.status === 'ok' ? (h.result ?? 'none') : h.status;
      const colour = h.status === 'error' || h.status === 'timeout' ? pc.red : (x: string) => x;
      const took = h.durationMs === undefined ? '' : ` ${pc.dim(`${h.durationMs.toFixed(1)}ms`)}`;
      return colour(`${h.name}:${label}${took}`);
    });
    const parts = [
      ...(hooks.length ? hooks : [pc.dim('(no hook)')]),
      ...(skipped > 0 ? [pc.dim(`(+${skipped} not run: chain ended)`)] : []),
    ];
    const head = `${outcome.event.padEnd(18)} ${subject(input, this.width - 19)}`;
    this.out.write(`${pc.bold(head.slice(0, 18))}${head.slice(18)}\n`);
    this.out.write(
      flow([...parts.map((p, i) => (i < parts.length - 1 ? `${p},` : p)), `${pc.dim('→')} ${verdictLabel(outcome)}`], this.width),
    );
  }

  private count(outcome: Outcome, ran: Outcome['hooks']): void {
    const s = this.summary;
    s.events++;
    s.hookRuns += ran.length;
    s.hookTimeMs += ran.reduce((t, h) => t + (h.durationMs ?? 0), 0);
    if (ran.length === 0) return;
    s.judged++;
    if (outcome.stop) s.stopped++;
    if (outcome.decision === 'deny' || outcome.blocked) s.denied++;
    else if (outcome.updatedInput || outcome.updatedOutput !== null) s.rewritten++;
    else s.allowed++;
  }

  private startSpinner(label: string): void {
    if (!this.out.isTTY || this.spinner) return;
    const spinner = { frame: 0, label, shown: false, timer: undefined as NodeJS.Timeout | undefined };
    const tick = () => {
      spinner.shown = true;
      this.out.write(`\r${pc.yellow(FRAMES[spinner.frame++ % FRAMES.length]!)} ${spinner.label}`);
    };
    // Fast hooks never show a spinner: it appears only once a hook has been slow for a while.
    spinner.timer = setTimeout(() => {
      tick();
      spinner.timer = setInterval(tick, 80);
    }, this.spinnerAfterMs);
    this.spinner = spinner;
  }

  private stopSpinner(): void {
    if (this.progressLine?.shown) {
      this.out.write('\r\x1b[2K');
      this.progressLine.shown = false;
    }
    if (!this.spinner) return;
    clearTimeout(this.spinner.timer);
    clearInterval(this.spinner.timer);
    if (this.spinner.shown) this.out.write('\r\x1b[2K');
    this.spinner = undefined;
  }

  /** The summary table printed at the end of a run; long values wrap inside their cell. */
  renderSummary(extra: Array<[string, string]> = []): string {
    const s = this.summary;
    const rows: Array<[string, string]> = [
      ['events fired', `${s.events} (${s.shown} shown above)`],
      ['events hooks judged', String(s.judged)],
      ['  allowed', String(s.allowed)],
      ['  denied or blocked', String(s.denied)],
      ['  rewritten', String(s.rewritten)],
      ['agent stops by hooks', String(s.stopped)],
      ['hook runs', String(s.hookRuns)],
      ['time spent in hooks', `${s.hookTimeMs.toFixed(1)} ms`],
      ...extra,
    ];
    const keyWidth = Math.max(...rows.map(([k]) => k.length));
    const valueWidth = Math.max(8, Math.min(this.width - keyWidth - 7, Math.max(...rows.map(([, v]) => v.length))));
    const line = `+${'-'.repeat(keyWidth + 2)}+${'-'.repeat(valueWidth + 2)}+`;
    const body = rows.flatMap(([k, v]) =>
      wrap(v.replace(/\s+/g, ' '), valueWidth).map(
        (chunk, i) => `| ${(i === 0 ? k : '').padEnd(keyWidth)} | ${chunk.padEnd(valueWidth)} |`,
      ),
    );
    return [line, ...body, line].join('\n');
  }
}

/** The progress line of a tool call waiting for a durable approval (docs/approvals.md). */
export function approvalWaitText(event: Extract<RuntimeEvent, { type: 'approval_wait' }>): string {
  const who = event.agentId ? `[${event.agentId}] ` : '';
  return `${who}${event.tool} waiting for approval ${event.approvalId} (${Math.round(event.waitedMs / 1000)} s)`;
}

/** Cut `text` into pieces of at most `width` characters, at spaces where there are some. */
function wrap(text: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > width / 2 ? space : width;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  pieces.push(rest);
  return pieces;
}
