import type { Command } from 'commander';
import pc from 'picocolors';
import { HookwiseError } from '../../core/errors.js';
import { EVENTS } from '../../core/events.js';
import type { SetExit } from '../index.js';
import { collect, loadEngine } from '../load-engine.js';

export function defineCheck(program: Command, setExit: SetExit): void {
  program
    .command('check')
    .description('Validate the configuration and list the hooks of each event in run order, with where each came from.')
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: what is found in the cwd)', collect)
    .option('--json', 'print the listing as JSON')
    .option('--strict', 'fail (exit 1) on any warning: a skipped settings entry, an unknown field, ...')
    .action(async (flags: { config?: string[]; json?: boolean; strict?: boolean }) => {
      let loaded: Awaited<ReturnType<typeof loadEngine>>;
      try {
        loaded = await loadEngine({ config: flags.config, quietWarnings: !flags.json });
      } catch (error) {
        // A configuration that does not load is what check is for: exit 2 (as hooks refuse), not 1 (a failure of check itself).
        if (!(error instanceof HookwiseError)) throw error;
        process.stderr.write(`hookwise: ${error.message}\n`);
        setExit(2);
        return;
      }
      const { engine, config } = loaded;
      const wiring = await wiringProblems();
      const known = new Set(EVENTS);
      const events = [
        ...EVENTS,
        ...new Set(
          engine
            .hooks()
            .flatMap((h) => [h.events].flat())
            .filter((e) => !known.has(e)),
        ),
      ];
      const listing = events
        .map((event) => ({
          event,
          hooks: engine.hooks(event).map((h) => ({ name: h.name, priority: h.priority ?? 0, source: h.source ?? null })),
        }))
        .filter((e) => e.hooks.length > 0);
      if (flags.json) {
        const sources = config.sources.map((s) => ({
          file: s.file,
          kind: s.kind,
          ...(s.scope && { scope: s.scope }),
          hooks: s.hooks.length,
          ...(s.skipped?.length && { skipped: s.skipped }),
        }));
        process.stdout.write(`${JSON.stringify({ sources, events: listing, warnings: config.warnings, wiring }, null, 2)}\n`);
      } else {
        process.stdout.write(`${pc.bold('sources')}:${config.sources.length ? '' : ' (none found)'}\n`);
        for (const s of config.sources) {
          const kind = s.scope ? `${s.kind} (${s.scope})` : s.kind;
          const own = s.skipped?.length ? `, ${s.skipped.length} of hookwise's own entries skipped` : '';
          process.stdout.write(`  ${s.file}  ${pc.dim(`${kind}, ${s.hooks.length} hook${s.hooks.length === 1 ? '' : 's'}${own}`)}\n`);
        }
        // hookwise's own entries are how Claude Code reaches hookwise, not hooks: say where they are and that they do not run.
        const skipped = config.sources.flatMap((s) => s.skipped ?? []);
        if (skipped.length) process.stdout.write(`\n${pc.bold('skipped')}:\n${skipped.map((line) => `  ${pc.dim(line)}\n`).join('')}`);
        for (const { event, hooks } of listing) {
          process.stdout.write(`\n${pc.cyan(event)}\n`);
          hooks.forEach((h, i) => {
            process.stdout.write(`  ${i + 1}. ${h.name}  ${pc.dim(`priority ${h.priority}`)}  ${pc.dim(h.source ?? '')}\n`);
          });
        }
        await printPacks(engine.hooks());
        if (config.warnings.length) {
          process.stdout.write(`\n${pc.yellow('warnings')}:\n`);
          for (const warning of config.warnings) process.stdout.write(`  ${warning}\n`);
        }
        // An agent that would not run hookwise's entries (Codex's untrusted hooks) runs the tools unjudged.
        if (wiring.length) {
          process.stdout.write(`\n${pc.red('wiring')}:\n`);
          for (const problem of wiring) process.stdout.write(`  ${problem}\n`);
        }
        const total = engine.hooks().length;
        const verdict = wiring.length
          ? pc.red(`not ok: ${wiring.length === 1 ? 'an agent' : `${wiring.length} agents`} would not run hookwise (wiring, above)`)
          : flags.strict && config.warnings.length
            ? pc.red(`not ok (--strict): ${config.warnings.length} warning${config.warnings.length === 1 ? '' : 's'}`)
            : `${pc.green('ok')}: ${total} hook${total === 1 ? '' : 's'} valid`;
        process.stdout.write(`\n${verdict}\n`);
      }
      // A warning is a hook that will not run as written, and no config at all is no policy: in CI, --strict fails on both.
      if (flags.strict && config.sources.length === 0)
        process.stdout.write(
          `${pc.red('not ok (--strict)')}: no hookwise config found from ${process.cwd()}; run \`hookwise init\` or pass --config <file>\n`,
        );
      setExit(flags.strict && (wiring.length > 0 || config.warnings.length > 0 || config.sources.length === 0) ? 1 : 0);
    });
}

/** Why an agent wired here would not run hookwise's entries, per agent init wired (src/hosts/<agent>/init). */
async function wiringProblems(): Promise<string[]> {
  const { AGENT_NAMES } = await import('../../hosts/registry.js');
  const { initTargets } = await import('../../hosts/init-targets.js');
  const problems: string[] = [];
  for (const agent of AGENT_NAMES)
    for (const target of await initTargets(agent, process.cwd(), process.env)) {
      const problem = await target.problem?.();
      if (problem) problems.push(`${agent}: ${problem}`);
    }
  return problems;
}

/** Each shell guard's rule packs, on or off (what it refuses as impossible to undo). */
async function printPacks(hooks: Array<{ name: string; handler?: unknown }>): Promise<void> {
  const { shellGuardPacks } = await import('../../guards/shell-guard.js');
  const { PACK_NAMES, PACK_SUMMARIES } = await import('../../guards/shell/packs/index.js');
  for (const hook of hooks) {
    const on = shellGuardPacks(hook);
    if (!on) continue;
    process.stdout.write(`\n${pc.cyan(`${hook.name} packs`)}\n`);
    for (const name of PACK_NAMES)
      process.stdout.write(`  ${name.padEnd(11)} ${on.has(name) ? pc.green('on ') : pc.dim('off')}  ${pc.dim(PACK_SUMMARIES[name])}\n`);
  }
}
