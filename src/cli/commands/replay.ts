import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect } from '../load-engine.js';
import { USAGE_EXIT, usageErrors } from './policy-test.js';

interface ReplayFlags {
  config?: string[];
  session?: string;
  since?: string;
  until?: string;
  json?: boolean;
  toTests?: string;
  runCommandHooks?: boolean;
  project?: string;
  cache: boolean;
}

/** How often progress is written to stderr on a long replay (HOOKWISE_REPLAY_PROGRESS_MS changes it; 0: after every batch). */
const PROGRESS_EVERY_MS = 1000;

function progressEveryMs(): number {
  const given = process.env.HOOKWISE_REPLAY_PROGRESS_MS;
  const ms = given ? Number(given) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms : PROGRESS_EVERY_MS;
}

export function defineReplay(program: Command, setExit: SetExit): void {
  program
    .command('replay')
    .description(
      'Replay recorded sessions through the current policy, running no tool, and list where it decides differently; docs/testing.md',
    )
    .argument(
      '<sources...>',
      'Claude Code session transcripts (.jsonl, or folders of them), hookwise audit databases (SQLite file or postgres:// URL)',
    )
    .option(
      '-c, --config <file>',
      'the policy to replay with; repeat to merge several (default: what is found in the current folder)',
      collect,
    )
    .option('--session <id>', 'audit trail: only this session')
    .option('--since <time>', 'audit trail: records at or after this time (ISO 8601)')
    .option('--until <time>', 'audit trail: records at or before this time (ISO 8601)')
    .option('--json', 'one JSON object per difference (JSON Lines) instead of a table')
    .option('--to-tests <file>', "also write the differences as policy test cases (YAML, or JSON for .json) pinning today's decisions")
    .option('--run-command-hooks', 'run Claude Code command hooks too (by default they are not run: they may have side effects)')
    .option(
      '--project <dir>',
      'the project folder the calls are judged in, instead of the one each call recorded (default: the recorded cwd, else the current folder)',
    )
    .option(
      '--no-cache',
      'judge every call, even one identical to a call judged before (for hooks that count or remember calls, e.g. a budget guard)',
    )
    .addHelpText(
      'after',
      '\nExit status: 0 every call decided as recorded, 1 some decided differently, 2 a source, flag or policy could not be used (or a line could not be read).',
    )
    .action(async (sources: string[], flags: ReplayFlags) => setExit(await replay(sources, flags)));
}

async function replay(sources: string[], flags: ReplayFlags): Promise<number> {
  return usageErrors(async () => {
    const path = await import('node:path');
    const { loadJudgingPolicy } = await import('../replay-policy.js');
    const r = await import('../../replay/index.js');
    const { sourceItems } = await import('../../replay/sources.js');
    const projectDir = path.resolve(flags.project ?? process.cwd());
    const items = await sourceItems(sources, { sessionId: flags.session, since: flags.since, until: flags.until });
    const { engine, skipped } = await loadJudgingPolicy({
      files: flags.config,
      cwd: process.cwd(),
      skipCommandHooks: !flags.runCommandHooks,
    });
    if (skipped.length)
      process.stderr.write(
        `hookwise: not running ${skipped.length} command hook${skipped.length === 1 ? '' : 's'} (pass --run-command-hooks to run them): ${skipped.join(', ')}\n`,
      );
    const rows: string[][] = [];
    const differences: import('../../replay/index.js').Difference[] = [];
    const started = Date.now();
    const every = progressEveryMs();
    let lastProgress = started;
    const summary = await r.replayCalls(
      engine,
      items,
      { projectDir, cwd: flags.project ? projectDir : undefined, cache: flags.cache },
      {
        difference(d) {
          differences.push(d);
          if (flags.json) process.stdout.write(r.jsonLine(d));
          else rows.push(r.tableRow(d));
        },
        problem(p) {
          process.stderr.write(`hookwise: ${p.source}:${p.at}: ${p.problem}; skipped, replay goes on\n`);
        },
        skipped(p) {
          process.stderr.write(`hookwise: ${p.source}:${p.at}: not replayed: ${p.problem}\n`);
        },
        progress(calls) {
          const now = Date.now();
          if (now - lastProgress < every) return;
          lastProgress = now;
          process.stderr.write(`hookwise: replayed ${calls} calls…\n`);
        },
      },
    );
    if (!flags.json) process.stdout.write(rows.length ? r.formatTable(rows) : `${r.headline(summary)}\n`);
    process.stderr.write(`hookwise: ${r.summaryLine(summary, (Date.now() - started) / 1000)}\n`);
    if (flags.toTests) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        flags.toTests,
        await r.toTests(
          differences,
          flags.toTests,
          flags.config?.map((c) => path.resolve(c)),
        ),
      );
      process.stderr.write(`hookwise: wrote ${differences.length} case${differences.length === 1 ? '' : 's'} to ${flags.toTests}\n`);
    }
    if (summary.problems > 0) return USAGE_EXIT;
    return summary.differences > 0 ? 1 : 0;
  });
}
