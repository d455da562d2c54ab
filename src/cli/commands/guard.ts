import path from 'node:path';
import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';

interface GuardFlags {
  workspace?: string;
  interactive?: boolean;
  json?: boolean;
  write?: boolean;
  cwd?: string;
  explain?: boolean;
  sandbox?: boolean;
}

const EXIT_HELP = `
Exit status: 0 when the guard allows it, 2 when it denies or would ask, 1 on a usage error.`;

function print(
  decision: { decision: string; reason: string; findings?: unknown[] },
  subject: Record<string, string>,
  json: boolean | undefined,
): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...subject, ...decision }, null, 2)}\n`);
    return;
  }
  const contained = (decision as { contained?: string[] }).contained;
  const word =
    decision.decision === 'allow' ? (contained ? 'allowed in the OS sandbox' : 'allowed') : decision.decision === 'ask' ? 'ask' : 'denied';
  process.stdout.write(`${word}: ${decision.reason}\n`);
}

function explainText(
  decision: import('../../guards/common.js').GuardDecision & { explanation: import('../../guards/shell/judge.js').Judgement },
): string {
  const { simple, rules, looks } = decision.explanation;
  const lines = [`parse: ${simple.length} simple command${simple.length === 1 ? '' : 's'}`];
  simple.forEach(
    (c, i) => void lines.push(`  ${i + 1}. ${c.line}${c.wrappers.length ? `   (wrappers peeled: ${c.wrappers.join(', ')})` : ''}`),
  );
  lines.push(`pack rules: ${rules.length ? rules.join(', ') : 'none objected'}`);
  lines.push(`looked on disk: ${looks.length ? '' : 'nothing'}`);
  for (const l of looks) lines.push(`  ${l}`);
  lines.push(`findings: ${decision.findings.length ? '' : 'none'}`);
  for (const f of decision.findings) lines.push(`  ${f.level}: ${f.reason}`);
  return `${lines.join('\n')}\n`;
}

export function defineGuard(program: Command, setExit: SetExit): void {
  const guard = program.command('guard').description('Explain what a built-in guard decides, and why.');

  guard
    .command('shell')
    .description('Judge a shell command as the shell guard would (PreToolUse on Bash).')
    .argument('<command>', 'the command line, quoted as one argument')
    .option('-w, --workspace <dir>', 'the workspace root (default: the current folder)')
    .option('--cwd <dir>', 'folder the command runs in (default: the workspace)')
    .option('-i, --interactive', 'what cannot be proven safe is asked instead of denied')
    .option('--json', 'print the decision and every finding as JSON')
    .option(
      '--explain',
      'also print every simple command found, the wrappers peeled, the pack rules that decided and what was looked at on disk',
    )
    .option('--no-sandbox', "judge as with `sandbox: 'off'`: what cannot be proven safe is refused instead of run sandboxed")
    .addHelpText('after', EXIT_HELP)
    .action(async (command: string, flags: GuardFlags) => {
      const { loadShellJudge } = await import('../../guards/shell-guard.js');
      const workspace = path.resolve(flags.workspace ?? process.cwd());
      const judge = await loadShellJudge({
        workspace,
        interactive: flags.interactive === true,
        sandbox: flags.sandbox === false ? 'off' : 'on',
      });
      const decision = judge.explain(command, flags.cwd ? path.resolve(flags.cwd) : workspace);
      if (flags.explain && flags.json) {
        const { simple, rules, looks } = decision.explanation;
        process.stdout.write(`${JSON.stringify({ command, workspace, ...decision, simple, rules, looks }, null, 2)}\n`);
      } else {
        if (flags.explain) process.stdout.write(explainText(decision));
        print(decision, { command, workspace }, flags.json);
      }
      setExit(decision.decision === 'allow' ? 0 : 2);
    });

  guard
    .command('path')
    .description('Judge a file path as the path guard would (Read, or Write with --write).')
    .argument('<path>', 'the path, as a tool would receive it')
    .option('-w, --workspace <dir>', 'the workspace root (default: the current folder)')
    .option('--cwd <dir>', 'folder a relative path is relative to (default: the workspace)')
    .option('--write', 'judge a write (default: a read)')
    .option('--read-anywhere', 'reads are allowed outside the workspace (secrets still refused)')
    .option('-i, --interactive', 'what cannot be proven safe is asked instead of denied')
    .option('--json', 'print the decision as JSON')
    .addHelpText('after', EXIT_HELP)
    .action(async (target: string, flags: GuardFlags & { readAnywhere?: boolean }) => {
      if (target === '') throw new UserError('guard path: the path is empty; pass the path to judge');
      const { PathPolicy } = await import('../../path-policy/judge.js');
      const { judgePath } = await import('../../guards/path-guard.js');
      const workspace = path.resolve(flags.workspace ?? process.cwd());
      const policy = new PathPolicy({ workspace, read: flags.readAnywhere ? 'anywhere' : 'workspace' });
      const access = flags.write ? 'write' : 'read';
      const decision = judgePath(policy, target, access, flags.cwd ? path.resolve(flags.cwd) : workspace, flags.interactive === true);
      print(decision, { path: target, access, workspace }, flags.json);
      setExit(decision.decision === 'allow' ? 0 : 2);
    });
}
