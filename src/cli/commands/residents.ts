import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { residentDir, type ResidentReply } from '../resident/address.cjs';
import { ask } from '../resident/client.cjs';

type Status = Extract<ResidentReply, { kind: 'status' }>;

/** How long `--stop` waits for a resident to finish its calls and go. */
const STOP_WAIT_MS = 30_000;

/**
 * `hookwise residents`: the resident hookwise processes of this user
 * (docs/claude-code.md#the-resident), and `--stop` to end them. Sockets nobody
 * answers on any more (a resident that was killed) are removed on the way.
 */
export function defineResidents(program: Command, setExit: SetExit): void {
  program
    .command('residents')
    .description('List the resident hookwise processes that answer `hookwise claude-code` calls; --stop ends them.')
    .option('--stop', 'end every resident: each finishes the calls it took, lets async hooks finish and flushes its audit first')
    .option('--json', 'print the residents as a JSON array')
    .action(async (flags: { stop?: boolean; json?: boolean }) => {
      const found = await residents();
      if (flags.stop) await Promise.all(found.map(({ socket }) => stop(socket)));
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify(
            found.map((r) => r.status),
            null,
            2,
          )}\n`,
        );
      else if (found.length === 0) process.stdout.write(`no resident hookwise in ${residentDir()}\n`);
      for (const { status } of flags.json ? [] : found) {
        process.stdout.write(
          `${flags.stop ? 'stopped' : 'pid'} ${status.pid}  since ${status.startedAt}  answered ${status.answered}  in ${status.cwd}${status.args.length ? `  (${status.args.join(' ')})` : ''}\n`,
        );
        for (const file of status.config) process.stdout.write(`    watches ${file}\n`);
      }
      setExit(0);
    });
}

async function residents(): Promise<Array<{ socket: string; status: Status }>> {
  const dir = residentDir();
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.sock'));
  } catch {
    return [];
  }
  const found: Array<{ socket: string; status: Status }> = [];
  for (const name of names) {
    const socket = path.join(dir, name);
    const reply = await ask(socket, { op: 'status' });
    // Nobody there, or a listener that cannot prove it is a resident hookwise: its socket goes.
    if (reply === 'absent' || (typeof reply === 'object' && 'unanswered' in reply)) fs.rmSync(socket, { force: true });
    else if (typeof reply === 'object' && 'kind' in reply && reply.kind === 'status') found.push({ socket, status: reply });
  }
  return found;
}

/** Ask a resident to go, and wait until it has (its socket is gone). */
async function stop(socket: string): Promise<void> {
  await ask(socket, { op: 'stop' });
  const deadline = Date.now() + STOP_WAIT_MS;
  while (fs.existsSync(socket) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
