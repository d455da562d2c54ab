import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

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
  const probe = spawnSync(
    program,
    ['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '/bin/true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  if (probe.status === 0) return { ok: true, program };
  const said = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split('\n')[0];
  return {
    ok: false,
    why: `the OS sandbox cannot start (${program}: ${said}): allow unprivileged user namespaces (\`sysctl kernel.unprivileged_userns_clone=1\`, or on Ubuntu 24.04+ an AppArmor profile for bwrap), or set \`sandbox: "off"\` in the shell guard`,
  };
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
