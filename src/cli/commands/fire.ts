import path from 'node:path';
import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect, loadEngine } from '../load-engine.js';
import { readInputObject } from '../stdin.js';

interface FireFlags {
  config?: string[];
  session?: string;
  cwd?: string;
}

export function defineFire(program: Command, setExit: SetExit): void {
  program
    .command('fire')
    .description('Fire one event: read the input JSON object on stdin, print the Outcome as JSON. Exits 0 whatever the decision.')
    .argument('<event>', 'event name, canonical or alias (PreToolUse, PreToolCall, ...)')
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: what is found in the cwd)', collect)
    .option('--session <id>', 'session id (default: input.session_id)')
    .option('--cwd <dir>', 'working directory for the hooks (default: input.cwd, else the current folder)')
    .action(async (event: string, flags: FireFlags) => {
      // Hosts stamp inputs (the engine stays clock-free on its hot path): this CLI is the host here.
      const input = { timestamp: new Date().toISOString(), ...(await readInputObject()) };
      const cwd = flags.cwd ? path.resolve(flags.cwd) : undefined;
      const { engine } = await loadEngine({ config: flags.config, cwd: process.cwd() });
      const outcome = await engine.fire(event, input, { sessionId: flags.session, cwd });
      await engine.drain();
      process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      setExit(0);
    });
}
