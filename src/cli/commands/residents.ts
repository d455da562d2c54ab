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
 * (docs/claude-code.md#the-resident), and `--stop` to end this project's (`--all`:
 * every one, other projects' too). Sockets nobody answers on any more (a resident
 * that was killed) are removed on the way.
 */
export function defineResidents(program: Command, setExit: SetExit): void {
  program
    .command('residents')
    .description('List the resident hookwise processes that answer `hookwise claude-code` calls; --stop ends them.')
    .option(
      '--stop',
      "end this project's residents (those answering in $CLAUDE_PROJECT_DIR, else the current folder, or below it): each finishes the calls it took, lets async hooks finish and flushes its audit first",
    )
    .option('--all', "with --stop: end every resident of this user, other projects' too")
    .option('--json', 'print the residents as a JSON array')
    .action(async (flags: { stop?: boolean; all?: boolean; json?: boolean }) => {
      const all = await residents();
      const project = projectFolder();
      // Another project's resident serves another Claude Code session: stopping it is asked for by name (--all).
      const found = flags.stop && !flags.all ? all.filter((r) => isWithin(r.status.cwd, project)) : all;
      if (flags.stop) await Promise.all(found.map(({ socket }) => stop(socket)));
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify(
            found.map((r) => r.status),
            null,
            2,
          )}\n`,
        );
      else if (found.length === 0)
        process.stdout.write(`no resident hookwise${flags.stop && !flags.all ? ` for ${project}` : ''} in ${residentDir()}\n`);
      const others = all.length - found.length;
      if (!flags.json && others > 0)
        process.stdout.write(`${others} resident${others === 1 ? '' : 's'} of other projects left running (--stop --all ends them too)\n`);
      for (const { status } of flags.json ? [] : found) {
        process.stdout.write(
          `${flags.stop ? 'stopped' : 'pid'} ${status.pid}  since ${status.startedAt}  answered ${status.answered}  in ${status.cwd}${status.args.length ? `  (${status.args.join(' ')})` : ''}\n`,
        );
        for (const file of status.config) process.stdout.write(`    watches ${file}\n`);
      }
      setExit(0);
    });
}

/** This project: `$CLAUDE_PROJECT_DIR` (as in a hook), else the current folder; with links resolved, as a resident's cwd is. */
function projectFolder(): string {
  const dir = path.resolve(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

function isWithin(dir: string, folder: string): boolean {
  const rel = path.relative(folder, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
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
