import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PathPolicy } from '../../src/guards/index.js';
import { leaked, makeRange, snapshot, victimAlive, type Range, type RunResult } from './harness.js';

/**
 * The harness's range (harness.ts) with more to reach, for attacks-red.ts: secrets in
 * the home folder beyond the SSH key (a GitHub CLI token, a cargo registry token,
 * hookwise's audit key in the user's state folder), a registry token in an
 * environment variable whose name is not a shell identifier (as npm reads them), a
 * package whose file is a hard link into a store outside (as pnpm installs), a
 * submodule's git folder, a nested repository without hooks, a Unix socket in the home folder (Docker Desktop's), an
 * abstract Unix socket and a UDP listener on loopback.
 */
export interface RedRange extends Range {
  uport: number;
  abstract: string;
  /** What the extra listeners received. */
  extra: string[];
  settleExtra(): Promise<void>;
}

export const GH_TOKEN = 'GH-HOSTS-FAKE-TOKEN-7781';
export const CARGO_TOKEN = 'CARGO-FAKE-TOKEN-9931';
export const AUDIT_KEY = 'HOOKWISE-FAKE-AUDIT-KEY-5521';
export const NPM_TOKEN = ['npm', 'FakeRegistryToken0123456789abcdefABCD'].join('_');
const PROBE = 'hookwise-red-probe';

export async function makeRedRange(): Promise<RedRange> {
  const r = await makeRange();
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  write(path.join(r.home, '.config', 'gh', 'hosts.yml'), `github.com:\n  oauth_token: ${GH_TOKEN}\n`);
  write(path.join(r.home, '.cargo', 'credentials.toml'), `[registry]\ntoken = "${CARGO_TOKEN}"\n`);
  write(path.join(r.home, '.local', 'state', 'hookwise', 'p1', 'audit.key'), AUDIT_KEY);
  write(path.join(r.home, '.local', 'state', 'hookwise', 'p1', 'audit.db.head'), 'signed head\n');
  write(path.join(r.ws, '.git', 'modules', 'lib', 'config'), '[core]\n');
  fs.mkdirSync(path.join(r.ws, '.git', 'modules', 'lib', 'hooks'), { recursive: true });
  // A nested repository without a hooks folder (cloned with an empty template).
  write(path.join(r.ws, 'vendor', 'lib2', '.git', 'config'), '[core]\n');
  write(path.join(r.ws, 'vendor', 'lib2', '.git', 'HEAD'), 'ref: refs/heads/main\n');
  write(path.join(r.outside, 'store', 'index.js'), 'module.exports = 1;\n');
  fs.mkdirSync(path.join(r.ws, 'node_modules', 'dep'), { recursive: true });
  write(path.join(r.outside, 'store', 'package.json'), '{"name":"dep"}\n');
  for (const f of ['index.js', 'package.json']) fs.linkSync(path.join(r.outside, 'store', f), path.join(r.ws, 'node_modules', 'dep', f));
  r.env['npm_config_//registry.npmjs.org/:_authToken'] = NPM_TOKEN;
  // An exported bash function (as Lmod's `module`): its name is not a shell name either, and it must keep working.
  r.env['BASH_FUNC_greet%%'] = '() {  echo greeted\n}';

  const extra: string[] = [];
  const probes: Array<() => void> = [];
  const onData = (text: string) => {
    if (text.startsWith(PROBE)) probes.shift()?.();
    else extra.push(text);
  };
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
  };
  const stream = () =>
    net.createServer((socket) => {
      track(socket);
      socket.once('data', (d) => {
        onData(d.toString());
        socket.end('HTTP/1.0 200 OK\r\n\r\nok');
      });
    });
  const dockerSock = path.join(r.home, '.docker', 'desktop', 'docker.sock');
  fs.mkdirSync(path.dirname(dockerSock), { recursive: true });
  const docker = stream();
  await new Promise<void>((resolve) => docker.listen(dockerSock, resolve));
  const abstract = `hookwise-red-${randomInt(1e9)}`;
  const abs = stream();
  await new Promise<void>((resolve) => abs.listen(`\0${abstract}`, resolve));
  const udp = dgram.createSocket('udp4');
  udp.on('message', (m) => onData(m.toString()));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const uport = udp.address().port;

  const probe = async (send: () => void) => {
    const seen = new Promise<void>((resolve) => probes.push(resolve));
    send();
    await seen;
  };
  return {
    ...r,
    uport,
    abstract,
    extra,
    async settleExtra() {
      await r.settle();
      // Each listener answers a probe only after what was sent to it before.
      for (const address of [dockerSock, `\0${abstract}`]) {
        await probe(() => {
          const c = net.connect(address, () => c.end(PROBE));
          track(c);
        });
      }
      await probe(() => udp.send(PROBE, uport, '127.0.0.1'));
    },
    async cleanup() {
      for (const socket of open) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => docker.close(() => resolve())),
        new Promise<void>((resolve) => abs.close(() => resolve())),
        new Promise<void>((resolve) => udp.close(() => resolve())),
      ]);
      await r.cleanup();
    },
  };
}

/** Every file outside the workspace, and the protected ones inside it, as they are now. */
export function redSnapshot(r: RedRange): string {
  const policy = new PathPolicy({ workspace: r.ws, home: r.home });
  const seen: string[] = [snapshot(r)];
  const walk = (dir: string, inWorkspace: boolean) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      // What the sandbox moved aside is inert: nothing runs a file by that name.
      if (inWorkspace && entry.name.includes('.hookwise-blocked-')) continue;
      if (full === r.ws) {
        walk(full, true);
        continue;
      }
      if (entry.isDirectory()) {
        if (!inWorkspace || policy.protectedRuleOf(full, r.ws)) seen.push(`${full}/`);
        walk(full, inWorkspace);
        continue;
      }
      if (inWorkspace && !policy.protectedRuleOf(full, r.ws)) continue;
      if (entry.isSymbolicLink()) seen.push(`${full} -> ${fs.readlinkSync(full)}`);
      else if (entry.isFile()) seen.push(`${full}: ${fs.readFileSync(full, 'utf8')}`);
      else seen.push(full);
    }
  };
  walk(r.root, false);
  return seen.join('\n');
}

/** What a line reached: a changed file outside or protected, a secret seen, a listener reached, the victim killed. */
export function redReached(r: RedRange, before: string, result: RunResult): string[] {
  const found = leaked(r, result);
  const text = result.stdout + result.stderr + workspaceFiles(r.ws);
  for (const [name, secret] of [
    ['the GitHub CLI token', GH_TOKEN],
    ['the cargo token', CARGO_TOKEN],
    ["hookwise's audit key", AUDIT_KEY],
    ['the npm token in the environment', NPM_TOKEN],
  ] as const) {
    if (text.includes(secret)) found.push(name);
  }
  if (r.extra.length > 0) found.push(`a socket outside got ${r.extra.length} message(s)`);
  if (redSnapshot(r) !== before) found.push('a file outside the workspace or a protected file changed');
  if (!victimAlive(r)) found.push('the process outside was killed');
  return found;
}

function workspaceFiles(ws: string): string {
  let text = '';
  for (const entry of fs.readdirSync(ws, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || full === path.join(ws, '.env') || full.includes(`${path.sep}.git${path.sep}`)) continue;
    if (full.includes(`${path.sep}node_modules${path.sep}`)) continue;
    text += fs.readFileSync(full, 'latin1');
  }
  return text;
}
