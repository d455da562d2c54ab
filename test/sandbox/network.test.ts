import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { resolveSandbox, Sandbox, type SandboxSettings } from '../../src/sandbox/index.js';
import { netProxySocket } from '../../src/sandbox/proxy/place.js';
import { startNetProxy, type NetProxy } from '../../src/sandbox/proxy/server.js';
import { runCli } from '../cli/run-cli.js';
import { guardEngine, hostLine, makeRange, runBash, type Range } from './harness.js';
import { slack } from '../support/slack.js';

/**
 * The network allowlist for real (docs/security.md#the-os-sandbox): a loopback HTTP
 * server stands in for a registry, the range's listener for the rest of the internet.
 * The proxy runs in this process with a resolver that maps every `*.test` name to
 * 127.0.0.1, so a name off the list would reach the listener if the proxy let it
 * through: only the allowlist stands between them. Each bypass is shown to reach the
 * listener without the sandbox first.
 */
const NETWORK: SandboxSettings['network'] = { allow: ['registry.test', '*.mirror.test'] };
const resolve = async (host: string) => {
  if (host.endsWith('.test')) return ['127.0.0.1'];
  throw new Error(`${host} is not a test name`);
};

let r: Range;
let dir: string;
let registry: http.Server;
let registryPort: number;
/** What the registry was asked: the Host header of each request. */
const asked: string[] = [];
let proxy: NetProxy;
const savedDir = process.env.HOOKWISE_RESIDENT_DIR;

beforeAll(async () => {
  // Short: a Unix socket path has at most 108 bytes.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hw-np-'));
  fs.chmodSync(dir, 0o700);
  process.env.HOOKWISE_RESIDENT_DIR = dir;
  registry = http.createServer((req, res) => {
    asked.push(String(req.headers.host));
    res.end(`package from ${req.headers.host}${req.url}\n`);
  });
  await new Promise<void>((done) => registry.listen(0, '127.0.0.1', done));
  registryPort = (registry.address() as { port: number }).port;
  const allow = allowOf(NETWORK);
  proxy = await startNetProxy({ socket: netProxySocket(allow)!, allow, resolve });
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((done) => registry.close(() => done()));
  if (savedDir === undefined) delete process.env.HOOKWISE_RESIDENT_DIR;
  else process.env.HOOKWISE_RESIDENT_DIR = savedDir;
  // Logs stay (a daemon's log says what it refused); no socket or pid file does.
  expect(
    fs.readdirSync(dir).filter((f) => !f.endsWith('.log')),
    'a proxy left its socket',
  ).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  r = await makeRange();
  asked.length = 0;
});
afterEach(async () => {
  await r.cleanup();
  expect(bridgesLeft(), 'a socat bridge outlived its sandbox').toEqual([]);
});

function allowOf(network: SandboxSettings['network']): string[] {
  const resolved = resolveSandbox({ network }, 'test')!.network;
  if (typeof resolved !== 'object') throw new Error('not an allowlist');
  return resolved.allow;
}

/** The line the sandbox runs for a command, without the parser: what the kernel and the proxy enforce alone. */
function sandboxLine(command: string, network: SandboxSettings['network'] = NETWORK): string {
  const sandbox = new Sandbox(resolveSandbox({ network }, 'test')!);
  return sandbox.wrap(command, new PathPolicy({ workspace: r.ws, home: r.home }), r.env).line;
}

/** Processes still running that bridge to one of this file's sockets. */
function bridgesLeft(): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes('socat') && cmd.includes(dir)) found.push(`${pid}: ${cmd}`);
    } catch {}
  }
  return found;
}

describe('a name on the allowlist is reached through the proxy', () => {
  it('plain http, through the guard as a host runs it', async () => {
    const { line } = await hostLine(
      guardEngine(r, { sandbox: { network: NETWORK } }),
      r,
      `curl -sS http://registry.test:${registryPort}/left-pad`,
    );
    const result = await runBash(r, line!);
    expect(result.stdout, result.stderr).toBe(`package from registry.test:${registryPort}/left-pad\n`);
    expect(result.status).toBe(0);
    // Without the sandbox the name resolves nowhere: the proxy's resolver reached it.
    expect((await runBash(r, `curl -sS --noproxy '*' http://registry.test:${registryPort}/`)).status).not.toBe(0);
  });

  it('a tunnel (CONNECT, as for https), and a name below a *. entry', async () => {
    const result = await runBash(r, sandboxLine(`curl -sS --proxytunnel http://pkgs.mirror.test:${registryPort}/a`));
    expect(result.stdout, result.stderr).toBe(`package from pkgs.mirror.test:${registryPort}/a\n`);
  });

  it("git and npm are pointed at the proxy; a command's own `wait` does not wait for the bridge", async () => {
    const result = await runBash(r, sandboxLine('git config --get http.proxy; echo "$npm_config_proxy"; sleep 0.1 & wait; echo waited'));
    expect(result.stdout, result.stderr).toBe('http://127.0.0.1:3128\nhttp://127.0.0.1:3128\nwaited\n');
  });
});

describe('a command the parser proves local runs without the bridge (guards/shell/offline.ts)', () => {
  /** The sealed script a line names (src/sandbox/sealed-line.ts). */
  const scriptOf = (line: string) => fs.readFileSync(/__hw_f='?([^';]+)'?;/.exec(line)![1]!, 'utf8');

  it('no bridge and no proxy variables for a read, a local edit or a local git look; the bridge for anything else', async () => {
    const engine = guardEngine(r, { sandbox: { network: NETWORK } });
    fs.writeFileSync(path.join(r.ws, 'notes.txt'), 'draft\n');
    for (const command of [
      'printenv HTTPS_PROXY',
      'sed -i s/draft/final/ notes.txt && printenv HTTPS_PROXY',
      'git status --short; printenv HTTPS_PROXY',
    ]) {
      const { line, reason } = await hostLine(engine, r, command);
      expect(line, `${command}: ${reason}`).toBeDefined();
      expect(scriptOf(line!), command).not.toContain('socat');
      const result = await runBash(r, line!);
      // printenv exits 1 when the variable is not set: nothing pointed this command at a proxy.
      expect([result.stdout, result.status], `${command}: ${result.stderr}`).toEqual([
        command.startsWith('git') ? expect.any(String) : '',
        1,
      ]);
    }
    expect(fs.readFileSync(path.join(r.ws, 'notes.txt'), 'utf8')).toBe('final\n');
    // The control: a command the parser cannot prove local gets the bridge, and the variables.
    const { line } = await hostLine(engine, r, 'env | grep -c "^HTTPS_PROXY="');
    expect(scriptOf(line!)).toContain('socat');
    const result = await runBash(r, line!);
    expect(result.stdout, result.stderr).toBe('1\n');
  });

  it('such a command runs in a network of its own with nothing listening: no bridge, no host socket', async () => {
    const engine = guardEngine(r, { sandbox: { network: NETWORK } });
    // The kernel's table of this network namespace's TCP sockets: local address as hex IP:port, state 0A = listening.
    const listening = (table: string) =>
      table
        .split('\n')
        .slice(1)
        .map((row) => row.trim().split(/\s+/))
        .filter((cols) => cols[3] === '0A')
        .map((cols) => Number.parseInt(cols[1]!.split(':')[1]!, 16));
    const { line, reason } = await hostLine(engine, r, 'cat /proc/net/tcp');
    expect(line, String(reason)).toBeDefined();
    const result = await runBash(r, line!);
    expect(result.stdout, result.stderr).toContain('local_address');
    expect(listening(result.stdout)).toEqual([]);
    // The control: a command the parser cannot prove local has the bridge listening on 3128, and still no host socket.
    const bridged = await hostLine(engine, r, 'env >/dev/null; cat /proc/net/tcp');
    const control = await runBash(r, bridged.line!);
    expect(listening(control.stdout), control.stderr).toEqual([3128]);
    expect(listening(fs.readFileSync('/proc/net/tcp', 'utf8'))).toContain(registryPort);
  });
});

describe('a name off the allowlist gets a 403 that names the host and the setting', () => {
  it('plain http: the body is in the output, and nothing reaches the host', async () => {
    // Without the sandbox, the same request reaches the listener (evil.test stands for 127.0.0.1 here).
    expect((await runBash(r, `curl -sS http://127.0.0.1:${r.port}/`)).stdout).toContain('ok');
    r.received.length = 0;
    const result = await runBash(r, sandboxLine(`curl -sS -D - http://evil.test:${r.port}/`));
    expect(result.stdout).toMatch(/^HTTP\/1\.1 403 Forbidden by hookwise: evil\.test is not on sandbox\.network/);
    expect(result.stdout).toContain(
      `hookwise sandbox: refused evil.test:${r.port}: evil.test is not on the allowlist; add it to sandbox.network in the shell guard`,
    );
    expect(r.received).toEqual([]);
  });

  it('a tunnel: refused, nothing reaches the host', async () => {
    const result = await runBash(r, sandboxLine(`curl -sS --proxytunnel http://evil.test:${r.port}/`));
    expect(result.stderr).toMatch(/CONNECT tunnel failed, response 403/);
    expect(r.received).toEqual([]);
  });

  it('the mirror.test of *.mirror.test itself, and a look-alike suffix', async () => {
    for (const host of ['mirror.test', 'evilmirror.test', 'registry.test.evil.test']) {
      const result = await runBash(r, sandboxLine(`curl -sS http://${host}:${r.port}/`));
      expect(result.stdout).toContain(`refused ${host}:${r.port}`);
    }
    expect(r.received).toEqual([]);
  });
});

/** Connections that ignore the proxy: each reaches the listener without the sandbox, nothing with it. */
const BYPASSES = [
  `curl -sS -m 5 --noproxy '*' http://127.0.0.1:{port}/`,
  `env -u http_proxy -u HTTP_PROXY -u ALL_PROXY -u all_proxy curl -sS -m 5 http://127.0.0.1:{port}/`,
  'echo bypass > /dev/tcp/127.0.0.1/{port}',
  `python3 -c "import socket; s = socket.create_connection(('127.0.0.1', {port}), 5); s.sendall(b'bypass')"`,
];

describe('direct connections bypassing the proxy reach nothing', () => {
  it.each(BYPASSES)('%s', async (template) => {
    const command = template.replaceAll('{port}', String(r.port));
    await runBash(r, command);
    expect(r.received.length, 'the bypass does not reach the listener even without the sandbox').toBeGreaterThan(0);
    r.received.length = 0;
    const result = await runBash(r, sandboxLine(command));
    expect(r.received, `${result.stdout}\n${result.stderr}`).toEqual([]);
    expect(result.status).not.toBe(0);
  });
});

/** Raw requests to the bridge from inside the sandbox: what a client that speaks HTTP itself could send. */
function raw(request: string): string {
  const text = request.replaceAll('{reg}', String(registryPort)).replaceAll('{port}', String(r.port)).replaceAll('\n', '\\r\\n');
  // The status line, then the last line before the proxy closes (a tunnel stays open: the reading stops after 3 s).
  return `exec 9<>/dev/tcp/127.0.0.1/3128; printf '${text}\\r\\n' >&9; IFS= read -r line <&9; echo "$line"; while IFS= read -r -t 3 l <&9; do last=$l; done; echo "$last"`;
}

describe('tricks on the proxy are refused', () => {
  it('the honest CONNECT works through the same raw route (so the refusals below are the proxy’s)', async () => {
    const result = await runBash(r, sandboxLine(raw('CONNECT registry.test:{reg} HTTP/1.1\nHost: registry.test:{reg}\n')));
    expect(result.stdout, result.stderr).toMatch(/^HTTP\/1\.1 200 Connection Established/);
  });

  it.each([
    ['a path smuggled after the CONNECT target', 'CONNECT registry.test:{reg}/../evil.test:{port} HTTP/1.1\n'],
    ['an absolute-form CONNECT target', 'CONNECT http://registry.test:{reg}/ HTTP/1.1\n'],
    ['a user part naming the allowed host', 'CONNECT registry.test@evil.test:{port} HTTP/1.1\n'],
    ['a Host header other than the CONNECT target', 'CONNECT registry.test:{reg} HTTP/1.1\nHost: evil.test:{port}\n'],
    ['an IP literal', 'CONNECT 127.0.0.1:{port} HTTP/1.1\n'],
    ['an IP literal written as a number', 'CONNECT 2130706433:{port} HTTP/1.1\n'],
    ['a forwarded request with a Host header other than its URL', 'GET http://registry.test:{reg}/x HTTP/1.1\nHost: evil.test:{port}\n'],
    ['a forwarded request to an IP literal', 'GET http://127.1:{port}/ HTTP/1.1\n'],
    ['a forwarded https URL (not tunnelled)', 'GET https://evil.test:{port}/ HTTP/1.1\n'],
    ['a request that is no proxy request', 'GET /x HTTP/1.1\nHost: evil.test:{port}\n'],
  ])('%s', async (_name, request) => {
    const result = await runBash(r, sandboxLine(raw(request)));
    expect(result.stdout, result.stderr).toMatch(/^HTTP\/1\.1 40[03] /);
    expect(result.stdout).toContain('hookwise sandbox: refused');
    expect(r.received).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('no proxy, no run', () => {
  it('a command whose proxy does not answer fails with one line naming the fix, and does not run', async () => {
    const line = sandboxLine('touch ran.txt', { allow: ['nobody-serves-this.test'] });
    const result = await runBash(r, line);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^hookwise sandbox: the network proxy for sandbox\.network does not answer .*: run the command again through hookwise/,
    );
    expect(fs.existsSync(path.join(r.ws, 'ran.txt'))).toBe(false);
  });
});

describe('the proxy hookwise starts on its own (as for a host that runs the line later)', () => {
  it(
    'the guard starts one for its allowlist, which refuses what is off the list; once it is stopped, nothing runs',
    async () => {
      const network = { allow: ['registry.test'] };
      const socket = netProxySocket(allowOf(network))!;
      expect(fs.existsSync(socket)).toBe(false);
      const engine = guardEngine(r, { sandbox: { network } });
      const { line } = await hostLine(engine, r, `curl -sS http://evil.test:${r.port}/`);
      // The pid file is written just after the socket answers.
      while (!fs.existsSync(`${socket}.pid`)) await new Promise((w) => setTimeout(w, 20));
      const pid = Number(fs.readFileSync(`${socket}.pid`, 'utf8'));
      try {
        const result = await runBash(r, line!);
        expect(result.stdout, result.stderr).toContain(`hookwise sandbox: refused evil.test:${r.port}: evil.test is not on the allowlist`);
        expect(r.received).toEqual([]);
        // A second call finds it answering and starts no other.
        await hostLine(engine, r, 'true');
        expect(Number(fs.readFileSync(`${socket}.pid`, 'utf8'))).toBe(pid);
      } finally {
        process.kill(pid, 'SIGTERM');
        const deadline = Date.now() + slack(20_000);
        while ((fs.existsSync(`/proc/${pid}`) || fs.existsSync(socket)) && Date.now() < deadline)
          await new Promise((w) => setTimeout(w, 50));
      }
      expect(fs.existsSync(`/proc/${pid}`), 'the proxy process is still running').toBe(false);
      expect(fs.existsSync(socket)).toBe(false);
      const again = await runBash(r, `${line!}; echo "status $?"`);
      expect(again.stderr).toMatch(/hookwise sandbox: the network proxy for sandbox\.network does not answer/);
      expect(again.stdout).toBe('status 1\n');
    },
    slack(60_000),
  );
});

describe('hookwise sandbox (spawned) serves the proxy itself for its run', () => {
  it(
    'refuses a host off the list with the 403 body in the output, and leaves no proxy behind',
    async () => {
      const network = { allow: ['registry.test'] };
      const socket = netProxySocket(allowOf(network))!;
      const file = path.join(r.ws, 'hookwise.config.mjs');
      const guards = path.resolve('dist/guards/index.js');
      const options = JSON.stringify({ home: r.home, sandbox: { network } });
      fs.writeFileSync(
        file,
        `import { shellGuard } from ${JSON.stringify(guards)};\nexport default { hooks: [shellGuard(${options})] };\n`,
      );
      const res = await runCli(['sandbox', '--config', file, '--', 'curl', '-sS', `http://evil.test:${r.port}/`], {
        cwd: r.ws,
        env: { ...r.env, HOOKWISE_RESIDENT_DIR: dir },
      });
      expect(res.stdout, res.stderr).toContain(`hookwise sandbox: refused evil.test:${r.port}: evil.test is not on the allowlist`);
      expect(res.code).toBe(0);
      await r.settle();
      expect(r.received).toEqual([]);
      expect(fs.existsSync(socket)).toBe(false);
    },
    slack(60_000),
  );
});
