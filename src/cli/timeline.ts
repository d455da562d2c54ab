import pc from 'picocolors';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';

/**
 * The live view of what the hooks did: one line per fired event with the hooks
 * that ran, their results and durations; a spinner while a hook is slow; a
 * summary table at the end. Subscribes to the engine, so it sees every outcome.
 */
export interface TimelineOptions {
  out?: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean };
  /** A hook running longer than this gets a spinner (TTY only). */
  spinnerAfterMs?: number;
  /** Events whose outcome is uneventful (no hook ran) are not printed. */
  quiet?: boolean;
}

export interface TimelineSummary {
  events: number;
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

function subject(input: HookInput): string {
  if (typeof input.tool_name === 'string') {
    const args = input.tool_input ?? {};
    const detail = typeof args.command === 'string' ? args.command : typeof args.file_path === 'string' ? args.file_path : typeof args.path === 'string' ? args.path : '';
    return `${input.tool_name}${detail ? ` ${pc.dim(truncate(detail, 60))}` : ''}`;
  }
  if (typeof input.prompt === 'string') return pc.dim(truncate(input.prompt, 60));
  if (typeof input.agent_type === 'string') return input.agent_type;
  return '';
}

const ALWAYS_SHOWN = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionStart']);

/** In quiet mode, events where every hook said nothing are left out (step and model bookkeeping). */
function worthShowing(o: Outcome): boolean {
  if (o.hooks.length === 0) return false;
  if (ALWAYS_SHOWN.has(o.event)) return true;
  return o.blocked || o.stop || o.retry !== null || o.decision !== null || o.additionalContext !== null || o.hooks.some((h) => h.status !== 'ok' || (h.result !== 'none' && h.result !== null));
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

export class Timeline {
  readonly summary: TimelineSummary = { events: 0, allowed: 0, denied: 0, rewritten: 0, stopped: 0, hookRuns: 0, hookTimeMs: 0 };
  private readonly out: NonNullable<TimelineOptions['out']>;
  private readonly spinnerAfterMs: number;
  private spinner: { timer: NodeJS.Timeout | undefined; frame: number; label: string; shown: boolean } | undefined;
  private readonly offs: Array<() => void> = [];

  constructor(private readonly options: TimelineOptions = {}) {
    this.out = options.out ?? process.stdout;
    this.spinnerAfterMs = options.spinnerAfterMs ?? 150;
  }

  attach(engine: HookEngine): this {
    this.offs.push(engine.on('outcome', (outcome, { input }) => this.onOutcome(outcome, input)));
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
    this.out.write(`    ${pc.dim(text)}\n`);
  }

  private onOutcome(outcome: Outcome, input: HookInput): void {
    this.stopSpinner();
    const s = this.summary;
    s.events++;
    const ran = outcome.hooks.filter((h) => h.status !== 'skipped');
    s.hookRuns += ran.length;
    s.hookTimeMs += ran.reduce((t, h) => t + h.durationMs, 0);
    if (outcome.stop) s.stopped++;
    if (outcome.decision === 'deny' || outcome.blocked) s.denied++;
    else if (outcome.updatedInput || outcome.updatedOutput !== null) s.rewritten++;
    else s.allowed++;
    if (this.options.quiet && !worthShowing(outcome)) return;
    const skipped = outcome.hooks.length - ran.length;
    const hooks = ran
      .map((h) => {
        const label = h.status === 'ok' ? (h.result ?? 'none') : h.status;
        const colour = h.status === 'error' || h.status === 'timeout' ? pc.red : (x: string) => x;
        return colour(`${h.name}:${label} ${pc.dim(`${h.durationMs.toFixed(1)}ms`)}`);
      })
      .join(', ');
    const rest = skipped > 0 ? pc.dim(` (+${skipped} not run: chain ended)`) : '';
    this.out.write(`${pc.bold(outcome.event.padEnd(18))} ${subject(input)}\n`);
    this.out.write(`    ${hooks || pc.dim('(no hook)')}${rest} ${pc.dim('→')} ${verdictLabel(outcome)}\n`);
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
    if (!this.spinner) return;
    clearTimeout(this.spinner.timer);
    clearInterval(this.spinner.timer);
    if (this.spinner.shown) this.out.write('\r\x1b[2K');
    this.spinner = undefined;
  }

  /** The summary table printed at the end of a run. */
  renderSummary(extra: Array<[string, string]> = []): string {
    const s = this.summary;
    const rows: Array<[string, string]> = [
      ['events fired', String(s.events)],
      ['allowed', String(s.allowed)],
      ['denied or blocked', String(s.denied)],
      ['rewritten', String(s.rewritten)],
      ['agent stops by hooks', String(s.stopped)],
      ['hook runs', String(s.hookRuns)],
      ['time spent in hooks', `${s.hookTimeMs.toFixed(1)} ms`],
      ...extra,
    ];
    for (const row of rows) row[1] = truncate(row[1], 72);
    const width = Math.max(...rows.map(([k]) => k.length));
    const line = `+${'-'.repeat(width + 2)}+${'-'.repeat(Math.max(...rows.map(([, v]) => v.length)) + 2)}+`;
    const body = rows.map(([k, v]) => `| ${k.padEnd(width)} | ${v.padEnd(line.length - width - 7)} |`);
    return [line, ...body, line].join('\n');
  }
}
