import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxStateRoot } from './private-temp.js';

/** Whether this machine can run the sandbox, and if not, the one line that says how to fix it. */
export type Availability = { ok: true; program: string } | { ok: false; why: string };

const BWRAP_PLACES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const cache = new Map<string, Availability>();

/**
 * Found and tried once per process: bubblewrap on Linux (it must be able to make
 * the namespaces the sandbox uses), sandbox-exec on macOS. Absolute paths only, so
 * no PATH the agent influences picks the program.
 */
export function detectSandbox(platform: NodeJS.Platform = process.platform): Availability {
  let found = cache.get(platform);
  if (found === undefined) {
    found = platform === 'darwin' ? detectSeatbelt() : platform === 'linux' ? detectBwrap() : unsupported(platform);
    cache.set(platform, found);
  }
  return found;
}

function detectBwrap(): Availability {
  const program = BWRAP_PLACES.find((p) => isExecutable(p));
  if (!program) {
    return {
      ok: false,
      why: 'the OS sandbox needs bubblewrap, which is not installed: install it (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`), or set `sandbox: "off"` in the shell guard',
    };
  }
  const verdict = verdictOf(program);
  if (verdict !== undefined && readOr(verdict.file) === verdict.key) return { ok: true, program };
  const probe = spawnSync(
    program,
    ['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '/bin/true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  if (probe.status === 0) {
    if (verdict !== undefined) remember(verdict);
    return { ok: true, program };
  }
  const said = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split('\n')[0];
  return {
    ok: false,
    why: `the OS sandbox cannot start (${program}: ${said}): allow unprivileged user namespaces (\`sysctl kernel.unprivileged_userns_clone=1\`, or on Ubuntu 24.04+ an AppArmor profile for bwrap), or set \`sandbox: "off"\` in the shell guard`,
  };
}

/**
 * Trying bubblewrap costs a process (10-25 ms, more under load) in every process that
 * answers a hook, so a success is remembered for the machine's boot and this bwrap
 * binary. Only a success: a wrong one (user namespaces turned off since) fails the
 * sandboxed command with bwrap's own error, and nothing runs, since the sandboxed line
 * never runs a command outside bwrap. So the file needs no protection.
 */
interface Verdict {
  file: string;
  key: string;
}

function verdictOf(program: string): Verdict | undefined {
  const boot = readOr('/proc/sys/kernel/random/boot_id').trim();
  const stat = fs.statSync(program, { throwIfNoEntry: false });
  if (boot === '' || stat === undefined) return undefined;
  const file = path.join(sandboxStateRoot(os.homedir()), 'bwrap-works');
  return { file, key: `${boot} ${program} ${stat.ino} ${stat.size} ${stat.mtimeMs} ${process.getuid?.()}\n` };
}

function remember({ file, key }: Verdict): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, key, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // Not remembered: the next process tries bwrap again.
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function detectSeatbelt(): Availability {
  if (isExecutable(SANDBOX_EXEC)) return { ok: true, program: SANDBOX_EXEC };
  return { ok: false, why: 'the OS sandbox needs /usr/bin/sandbox-exec, which is missing: set `sandbox: "off"` in the shell guard' };
}

function unsupported(platform: string): Availability {
  return { ok: false, why: `hookwise has no OS sandbox for ${platform}: set \`sandbox: "off"\` in the shell guard` };
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
