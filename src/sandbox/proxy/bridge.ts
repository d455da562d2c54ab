import fs from 'node:fs';
import { ensureNetProxy } from './daemon.js';
import { netProxySocket } from './place.js';
import { PING_PATH } from './server.js';
import { SandboxUnavailableError } from '../errors.js';

/**
 * The sandbox's side of the network allowlist (Linux). The sandbox keeps its own
 * network namespace, with only loopback; the proxy's Unix socket is bound into it,
 * and socat, started inside before the command, turns 127.0.0.1:3128 into that socket.
 * The usual proxy variables point there, so npm, pip, cargo, go, git and curl use it;
 * a program that ignores them reaches nothing, as with `network: 'off'`.
 */
export const BRIDGE_PORT = 3128;
const PROXY_URL = `http://127.0.0.1:${BRIDGE_PORT}`;
const SOCAT_PLACES = ['/usr/bin/socat', '/usr/local/bin/socat', '/bin/socat'];

export interface Bridge {
  /** bubblewrap arguments added after the layout's (the socket, shown read-only where it is outside). */
  bwrapArgs: string[];
  /** Bash run inside the sandbox after the environment is scrubbed and before the command. */
  prelude: string;
}

/** Absolute paths only, so no PATH the agent influences picks the program. */
export function findSocat(): string | undefined {
  return SOCAT_PLACES.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why the allowlist cannot be enforced on this machine, or undefined when it can. */
export function bridgeProblem(platform: NodeJS.Platform): string | undefined {
  if (platform !== 'linux') {
    return `sandbox.network's allowlist is built for Linux (bubblewrap) only, not yet for ${platform}: set network to "off" or "on"`;
  }
  if (findSocat() === undefined) {
    return 'sandbox.network\'s allowlist needs socat inside the sandbox, which is not installed: install it (Debian/Ubuntu: `apt-get install socat`; Fedora: `dnf install socat`), or set network to "off" or "on"';
  }
  return undefined;
}

/**
 * Before a command is wrapped: the machine can bridge, and a proxy for the allowlist
 * answers (started when none does). The reason, in one line, when not.
 */
export async function prepareBridge(allow: readonly string[], platform: NodeJS.Platform): Promise<string | undefined> {
  const problem = bridgeProblem(platform);
  if (problem) return problem;
  const ready = await ensureNetProxy(allow);
  return ready.ok ? undefined : ready.why;
}

/** The bridge for an allowlist; throws with the reason when this machine cannot have one. */
export function bridgeFor(allow: readonly string[], platform: NodeJS.Platform): Bridge {
  const problem = bridgeProblem(platform);
  if (problem) throw new SandboxUnavailableError(problem);
  const socket = netProxySocket(allow);
  if (socket === undefined)
    throw new SandboxUnavailableError('the network proxy socket path would be too long: set HOOKWISE_RESIDENT_DIR to a shorter folder');
  return {
    // -try: a proxy that is gone leaves no socket, and the prelude's check says so in one line instead of bwrap failing.
    bwrapArgs: ['--ro-bind-try', socket, socket],
    prelude: prelude(findSocat()!, socket),
  };
}

function prelude(socat: string, socket: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const vars = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'ALL_PROXY', 'all_proxy']
    .concat(['npm_config_proxy', 'npm_config_https_proxy', 'YARN_HTTP_PROXY', 'YARN_HTTPS_PROXY'])
    .map((name) => `${name}=${PROXY_URL}`)
    .join(' ');
  const local = 'localhost,127.0.0.1,::1';
  const fail = `hookwise sandbox: the network proxy for sandbox.network does not answer (${socket}): run the command again through hookwise, which starts it, or set sandbox.network to "off"`;
  return [
    // An empty environment (exec -c): socat runs beside the command, and its /proc/<pid>/environ is readable there.
    `exec -c ${q(socat)} TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(socket)} 2>/dev/null &`,
    // Off the job table: a command's bare `wait` does not wait for the bridge; it ends with the sandbox's first process.
    'disown;',
    // Until socat listens (a few milliseconds), then one request through it: the proxy answers, or nothing runs.
    `__hw_l=; for __hw_i in {1..1000}; do { printf 'GET ${PING_PATH} HTTP/1.0\\r\\n\\r\\n' >&9; IFS= read -r -t 10 __hw_l <&9; true; } 2>/dev/null 9<>/dev/tcp/127.0.0.1/${BRIDGE_PORT} && break; sleep 0.003; done;`,
    `case $__hw_l in 'HTTP/1.1 204 '*) ;; *) echo ${q(fail)} >&2; exit 1;; esac; unset __hw_l __hw_i;`,
    `export ${vars} no_proxy=${local} NO_PROXY=${local} NODE_USE_ENV_PROXY=1;`,
    // git reads http.proxy from its config before the variables: this entry comes after any the user has.
    `__hw_n=\${GIT_CONFIG_COUNT:-0}; case $__hw_n in *[!0-9]*) __hw_n=0;; esac;`,
    `export "GIT_CONFIG_KEY_$__hw_n=http.proxy" "GIT_CONFIG_VALUE_$__hw_n=${PROXY_URL}" GIT_CONFIG_COUNT=$((__hw_n + 1)); unset __hw_n;`,
  ].join(' ');
}
