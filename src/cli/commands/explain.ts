import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect } from '../load-engine.js';
import { usageErrors } from './policy-test.js';
import { UserError } from '../errors.js';

interface ExplainFlags {
  config?: string[];
  json?: boolean;
}

export function defineExplain(program: Command, setExit: SetExit): void {
  program
    .command('explain')
    .description(
      'Explain one decision: sources loaded, every hook in run order with its matcher result, verdict and duration, and the merge; docs/testing.md',
    )
    .argument('<event>', 'event name (PreToolUse, UserPromptSubmit, ...)')
    .argument(
      '[input]',
      'the input JSON object (default: read from stdin); host fields (session_id, cwd, ...) are filled in as Claude Code would',
    )
    .option(
      '-c, --config <file>',
      'a configuration source; repeat to merge several (default: what is found in the current folder)',
      collect,
    )
    .option('--json', 'print the explanation as JSON')
    .addHelpText('after', '\nExit status: 0 when explained, 2 when the event, input or policy cannot be used.')
    .action(async (event: string, inputText: string | undefined, flags: ExplainFlags) =>
      setExit(await explainCommand(event, inputText, flags)),
    );
}

async function explainCommand(event: string, inputText: string | undefined, flags: ExplainFlags): Promise<number> {
  return usageErrors(async () => {
    const { checkEvent } = await import('../../compat/event-aliases.js');
    checkEvent(event);
    const input = inputText === undefined ? await (await import('../stdin.js')).readInputObject() : parseInput(inputText);
    const { hostInput } = await import('../../policy-test/host-input.js');
    const { explain } = await import('../../explain/explain.js');
    const { formatExplanation } = await import('../../explain/format.js');
    const cwd = process.cwd();
    const e = await explain({
      files: flags.config,
      cwd,
      event,
      input: hostInput(event, input, { projectDir: cwd, sessionId: 'explain' }, 0),
    });
    process.stdout.write(flags.json ? `${JSON.stringify(e, null, 2)}\n` : formatExplanation(e));
    return 0;
  });
}

function parseInput(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `input: not JSON (${(error as Error).message}); pass one JSON object, e.g. '{"tool_name":"Bash","tool_input":{"command":"ls"}}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UserError('input: expected a JSON object, e.g. \'{"tool_name":"Bash"}\'');
  return value as Record<string, unknown>;
}
