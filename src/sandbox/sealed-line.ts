import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { shq } from './command.js';
import { ownFolder } from './private-temp.js';

/**
 * The short sandboxed line (docs/security.md#the-sealed-line). The host runs the line the
 * shell guard answers, and Claude Code checks that line before it runs it, at a cost that
 * grows with its length (8-27 ms on the 6 KB line of the starter policy). So the long part,
 * the sandbox program with its mounts and the scripts around it, which is the same for
 * every command of a session, is written once into hookwise's state folder, named by its
 * SHA-256, and the line names it with its digest:
 *
 *   __hw_cmd='<command>'; { if [ "$(sha256sum </dev/fd/5)" = '<digest>  -' ]; then . /dev/fd/5; else <refuse>; fi; } 5<'<file>'
 *
 * The host's shell opens the file once (fd 5), hashes what it opened and runs that same
 * open file only when its digest is the one the hook put in the line: an edited file, a
 * file swapped for another sealed one, a missing file, a link to elsewhere: nothing runs,
 * and the shell says why. The line itself is the hook's answer, so the digest in it is
 * as trusted as the old long line was; no key is needed (an HMAC would add a secret to
 * keep and a second process per call, and protect nothing the digest does not). The
 * folder is in the state folder, which the sandbox masks and the path guard refuses to write.
 */
export const SEALED_FOLDER = 'lines';

/** A sealed script is removed when no line named it for this long. */
const STALE_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
let lastSweep = 0;

/** What this process wrote, by file: its inode, size and time stamp, so that a file changed or gone since is written again. */
const written = new Map<string, string>();
const stamp = (stat: fs.Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}`;

const SHA256SUM_PLACES = ['/usr/bin/sha256sum', '/bin/sha256sum', '/usr/local/bin/sha256sum'];
let sha256sum: string | null | undefined;

/** coreutils' sha256sum, by absolute path (no PATH the agent influences picks it); undefined where there is none. */
export function findSha256sum(): string | undefined {
  if (sha256sum === undefined) {
    sha256sum =
      SHA256SUM_PLACES.find((p) => {
        try {
          fs.accessSync(p, fs.constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }) ?? null;
  }
  return sha256sum ?? undefined;
}

/** The variable the sealed script reads the command from (set by the line, never exported). */
export const COMMAND_VARIABLE = '__hw_cmd';

/**
 * The short line that runs `script` (POSIX shell that reads the command from
 * COMMAND_VARIABLE) for `command`, with `script` sealed in `folder`. Undefined when it
 * cannot be sealed there (no sha256sum, a folder that is not ours): the caller then
 * answers with the long line, which is as safe, only longer.
 */
export function sealedLine(script: string, command: string, folder: string): string | undefined {
  const hasher = findSha256sum();
  if (hasher === undefined) return undefined;
  const digest = createHash('sha256').update(script).digest('hex');
  const file = path.join(folder, `${digest}.sh`);
  if (!writeSealed(folder, file, script)) return undefined;
  // A file that is missing or unreadable fails the redirection: the shell names it, and nothing runs either.
  return (
    `${COMMAND_VARIABLE}=${shq(command)}; __hw_f=${shq(file)}; ` +
    `{ if [ "$(${hasher} </dev/fd/5)" = '${digest}  -' ]; then . /dev/fd/5; ` +
    `else echo "hookwise sandbox: $__hw_f is not the sandbox hookwise sealed for this command (its SHA-256 differs): nothing ran" >&2; (exit 126); fi; } 5<"$__hw_f"`
  );
}

/** The script in place, written atomically when this process has not written it yet, or it changed or went since. */
function writeSealed(folder: string, file: string, script: string): boolean {
  try {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() && written.get(file) === stamp(stat)) return true;
    if (!ownFolder(folder, true)) return false;
    const temp = path.join(folder, `.${randomBytes(6).toString('hex')}.tmp`);
    fs.writeFileSync(temp, script, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
    written.set(file, stamp(fs.lstatSync(file)));
    sweepStale(folder);
    return true;
  } catch {
    return false;
  }
}

/** Scripts no line named for long go (their time stamp is when a process last wrote or found them). */
function sweepStale(folder: string): void {
  const now = Date.now();
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat !== undefined && now - stat.mtimeMs > STALE_MS) {
      fs.rmSync(file, { force: true });
      written.delete(file);
    }
  }
}
