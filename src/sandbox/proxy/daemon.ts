import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { netProxyDir, netProxySocket, untrustedDir } from './place.js';
import { answers } from '../unix-socket.js';
import { startNetProxy, type NetProxy } from './server.js';

/**
 * Who runs the network proxy. A host (Claude Code, Codex, …) runs the sandboxed line
 * itself, after hookwise has answered, and the hookwise that answered may be gone by
 * then (a one-shot hook process, a resident that went idle): so the proxy is its own
 * long-lived process, one per allowlist, started by whichever hookwise wraps a command
 * that needs it, and ending after HOOKWISE_NET_PROXY_IDLE_MS (30 minutes) with no
 * connection. Every wrap asks it once, which counts as use. `hookwise sandbox` and
 * tests serve it in their own process instead (serveInProcess).
 */
export type ProxyReady = { ok: true; socket: string } | { ok: false; why: string };

const BIN = fileURLToPath(new URL('../../../bin/hookwise.js', import.meta.url));
/** The hidden command bin/hookwise.js runs the proxy with (src/cli/commands/net-proxy.ts). */
export const DAEMON_COMMAND = 'net-proxy';
const START_WAIT_MS = 10_000;
const IDLE_ENV = 'HOOKWISE_NET_PROXY_IDLE_MS';
const DEFAULT_IDLE_MS = 30 * 60_000;

/**
 * When each proxy last answered this process. A wrap within FRESH_MS of an answer does not
 * ask again (a connection per tool call, which a resident serving a session paid on every
 * call): the line pings the proxy itself before the command runs, and refuses to run
 * when it does not answer, so a proxy that went in between costs one refused command, never an open network.
 */
const answeredAt = new Map<string, number>();
const FRESH_MS = 2_000;

/** Sockets being started by this process, so that parallel calls start one proxy. */
const starting = new Map<string, Promise<ProxyReady>>();
let inProcess: Map<string, NetProxy> | undefined;

/** Make sure a proxy for this allowlist answers; the one-line reason when none can. */
export async function ensureNetProxy(allow: readonly string[]): Promise<ProxyReady> {
  const socket = netProxySocket(allow);
  if (socket === undefined) {
    return {
      ok: false,
      why: `the network proxy's socket path in ${netProxyDir()} would be too long for a Unix socket: set HOOKWISE_RESIDENT_DIR to a shorter folder`,
    };
  }
  const seen = answeredAt.get(socket);
  if (seen !== undefined && Date.now() - seen < FRESH_MS) return { ok: true, socket };
  const unsafe = untrustedDir(path.dirname(socket));
  if (unsafe) return { ok: false, why: `the network proxy cannot listen safely: ${unsafe}` };
  if (await answers(socket)) {
    answeredAt.set(socket, Date.now());
    return { ok: true, socket };
  }
  answeredAt.delete(socket);
  let pending = starting.get(socket);
  if (pending === undefined) {
    pending = (inProcess ? startHere(socket, allow, inProcess) : startDaemon(socket, allow)).finally(() => starting.delete(socket));
    starting.set(socket, pending);
  }
  return pending;
}

/**
 * From now on this process serves the proxies ensureNetProxy starts, instead of a
 * separate process; `close()` ends them. For `hookwise sandbox`, whose command ends
 * before it does.
 */
export function serveInProcess(): { close(): Promise<void> } {
  const mine = new Map<string, NetProxy>();
  inProcess = mine;
  return {
    close: async () => {
      if (inProcess === mine) inProcess = undefined;
      await Promise.all([...mine.values()].map((p) => p.close()));
    },
  };
}

async function startHere(socket: string, allow: readonly string[], into: Map<string, NetProxy>): Promise<ProxyReady> {
  try {
    into.set(socket, await startNetProxy({ socket, allow }));
    return { ok: true, socket };
  } catch (error) {
    return { ok: false, why: `the network proxy could not listen on ${socket}: ${(error as Error).message}` };
  }
}

async function startDaemon(socket: string, allow: readonly string[]): Promise<ProxyReady> {
  const log = `${socket}.log`;
  try {
    const out = fs.openSync(log, 'a', 0o600);
    const child = spawn(process.execPath, [BIN, DAEMON_COMMAND, '--socket', socket, '--', ...allow], {
      detached: true,
      stdio: ['ignore', out, out],
      cwd: path.dirname(socket),
    });
    fs.closeSync(out);
    child.on('error', () => {});
    child.unref();
  } catch (error) {
    return { ok: false, why: `the network proxy could not be started: ${(error as Error).message}` };
  }
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (await answers(socket)) return { ok: true, socket };
    await new Promise((r) => setTimeout(r, 25));
  }
  return { ok: false, why: `the network proxy did not start within ${START_WAIT_MS / 1000} s (its log: ${log})` };
}

const logLine = (line: string) => process.stderr.write(`${new Date().toISOString()} hookwise net-proxy ${process.pid}: ${line}\n`);

/** The proxy process itself (`hookwise net-proxy --socket S -- hosts…`): resolves with its exit code. */
export async function runNetProxyDaemon(socket: string, allow: string[]): Promise<number> {
  const raw = process.env[IDLE_ENV];
  const idleMs = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_IDLE_MS;
  let proxy: NetProxy;
  try {
    proxy = await startNetProxy({ socket, allow, onRefuse: (target, why) => logLine(`refused ${target}: ${why}`) });
  } catch (error) {
    // Another start won the race: that proxy serves the same allowlist.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return 0;
    logLine(`not starting: ${(error as Error).message}`);
    return 1;
  }
  const pidFile = `${socket}.pid`;
  fs.writeFileSync(pidFile, String(process.pid), { mode: 0o600 });
  logLine(`serving ${socket} for ${allow.join(' ')}`);
  return new Promise<number>((resolve) => {
    const end = (why: string) => {
      clearInterval(check);
      logLine(`ending: ${why}`);
      void proxy.close().then(() => {
        fs.rmSync(pidFile, { force: true });
        resolve(0);
      });
    };
    const check = setInterval(
      () => {
        if (proxy.open === 0 && Date.now() - proxy.lastActivity >= idleMs) end(`idle for ${Math.round(idleMs / 1000)} s`);
        // A newer proxy took the path over (this one's socket was removed): it serves the callers now.
        else if (!fs.existsSync(socket)) end('its socket is gone');
      },
      Math.min(60_000, Math.max(idleMs, 50)),
    );
    process.once('SIGTERM', () => end('SIGTERM'));
    process.once('SIGINT', () => end('SIGINT'));
  });
}
