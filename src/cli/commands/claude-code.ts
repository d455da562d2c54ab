import type * as Fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { toClaudeCodeOutput } from '../../core/claude-code.js';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';
import { readInputObject } from '../stdin.js';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of start-up). getBuiltinModule is Node 20.16+.
const { writeSync } = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))) as typeof Fs;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `hookwise claude-code`: a hook for Claude Code itself (`"command": "npx hookwise claude-code"`).
 * Reads Claude Code's event JSON on stdin, runs the project's hookwise config module
 * (never Claude Code's settings: they name this very command), and answers in Claude
 * Code's output format. It runs on every tool call, so everything heavy loads lazily.
 */
const RECURSION_GUARD = 'HOOKWISE_CLAUDE_CODE';
const TYPESCRIPT = /\.(ts|mts|cts)$/;

export function defineClaudeCode(program: Command, setExit: SetExit): void {
  program
    .command('claude-code')
    .description("Run as a Claude Code hook: read the event on stdin, fire the project's hookwise config, answer in Claude Code's format.")
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: hookwise.config.* in $CLAUDE_PROJECT_DIR, else the cwd)', collect)
    .action(async (flags: { config?: string[] }) => setExit(await claudeCodeAction(flags)));
}

/**
 * The command without commander, for a launcher that wants the shortest start-up:
 * `bin/hookwise.js` may call this directly when argv[2] is `claude-code`.
 * Returns the exit code; configuration errors are printed as one line.
 */
export async function runClaudeCode(args: string[]): Promise<number> {
  const config: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if ((arg === '-c' || arg === '--config') && args[i + 1] !== undefined) config.push(args[++i]!);
    else if (arg.startsWith('--config=')) config.push(arg.slice('--config='.length));
    else {
      write(2, `hookwise: claude-code: unknown argument ${arg}\n`);
      return 1;
    }
  }
  try {
    return await claudeCodeAction({ config });
  } catch (error) {
    if (error instanceof UserError) {
      write(2, `hookwise: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function claudeCodeAction(flags: { config?: string[] }): Promise<number> {
  if (process.env[RECURSION_GUARD]) {
    write(2, 'hookwise: claude-code called from one of its own hooks; ignored\n');
    return 0;
  }
  const input = await readInputObject();
  const event = input.hook_event_name;
  if (typeof event !== 'string' || event === '') throw new UserError('stdin: hook_event_name is missing; expected the JSON Claude Code sends a hook');
  const projectDir = process.env.CLAUDE_PROJECT_DIR || (typeof input.cwd === 'string' ? input.cwd : process.cwd());
  const files = await configFiles(flags.config, projectDir);
  if (files.length === 0) {
    write(2, `hookwise: no hookwise.config.{ts,mts,mjs,js} in ${projectDir}; nothing to run\n`);
    return 0;
  }
  // Started together, not each once the module before it has loaded: load-engine
  // imports the loader, which imports the TypeScript cache.
  const [{ loadEngine }] = await Promise.all([
    import('../load-engine.js'),
    import('../../config/load.js'),
    files.some((f) => TYPESCRIPT.test(f)) && import('../../config/module-cache.js'),
  ]);
  const { engine } = await loadEngine({ config: files, cwd: projectDir });
  process.env[RECURSION_GUARD] = '1';
  const outcome = await engine.fire(event, input);
  const answer = toClaudeCodeOutput(outcome, input.tool_name);
  if (answer) write(1, `${JSON.stringify(answer)}\n`);
  // Async hooks finish before the process ends; what they return has no later outcome to reach.
  await engine.drain();
  return 0;
}

async function configFiles(named: string[] | undefined, projectDir: string): Promise<string[]> {
  if (named?.length) return named.map((f) => path.resolve(f));
  const { findConfigModule } = await import('../../config/discover.js');
  const found = findConfigModule(projectDir);
  return found ? [found] : [];
}

/** Writing the answer is Claude Code's protocol: it lives with the rest of it in the core. */
export { toClaudeCodeOutput };

/**
 * Write straight to the descriptor: `process.stdout` and `process.stderr` build a
 * stream on first use (~4 ms, more for a pipe), and this runs on every tool call.
 * A descriptor that refuses a synchronous write (non-blocking and full) gets the rest through the stream.
 */
function write(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(done));
  }
}
