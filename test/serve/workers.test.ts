import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';
import { queryAudit } from '../../src/audit/index.js';
import { MemoryCounterStore } from '../../src/counters/memory.js';
import { hashToken } from '../../src/serve/tenants.js';
import { serveWorkerCounters, WorkerCounterStore } from '../../src/serve/worker-counters.js';
import { runCli } from '../cli/run-cli.js';
import { preToolUse, TOKEN, workspace, writeConfig } from './helpers.js';
import { spawnServe, type Served } from './spawn.js';
import { alive } from '../support/processes.js';

const ws = workspace('workers');
afterAll(() => ws.cleanup());

/** Each answer says which process gave it. */
const PID_CONFIG = `import { context, defineConfig } from 'hookwise';
import { shellGuard } from 'hookwise/guards';
export default defineConfig({ hooks: [
  shellGuard(),
  { name: 'pid', events: 'UserPromptSubmit', handler: () => context(String(process.pid)) },
] });
`;

/** One POST on a connection of its own: node:cluster hands each new connection to the next worker. */
function postFresh(url: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

const prompt = (project: string) => ({ session_id: 'w', cwd: project, prompt: 'hi' });
const pidOf = (text: string) => Number((JSON.parse(text) as { additionalContext: string }).additionalContext);

async function pidsAnswering(served: Served, calls: number): Promise<number[]> {
  const pids: number[] = [];
  for (let i = 0; i < calls; i++) {
    const a = await postFresh(`${served.url}/v1/fire/UserPromptSubmit`, prompt(ws.project));
    expect(a.status).toBe(200);
    pids.push(pidOf(a.text));
  }
  return pids;
}

async function until(check: () => boolean, what: string, ms = slack(20_000)): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('hookwise serve --workers', () => {
  it('spreads connections over the workers, counts one rate limit for all of them, and drains them all on SIGTERM', async () => {
    const config = writeConfig(ws.configDir, PID_CONFIG, 'pid.config.mjs');
    const db = path.join(ws.configDir, 'workers.db');
    // A window of a day: `--rate-limit` counts per minute of the clock, and a loaded machine's run crossed one.
    const tenants = path.join(ws.configDir, 'workers-tenants.json');
    const rateLimit = { requests: 12, windowMs: 86_400_000 };
    writeFileSync(tenants, JSON.stringify({ tenants: [{ name: 'default', tokenSha256: hashToken(TOKEN), config, rateLimit }] }));
    const served = await spawnServe(['--tenants', tenants, '--workers', '2', '--audit', db], { cwd: ws.configDir });
    try {
      const pids = await pidsAnswering(served, 8);
      expect(new Set(pids).size).toBe(2);
      expect(pids).not.toContain(served.child.pid);
      const deny = await postFresh(`${served.url}/v1/claude-code`, preToolUse(ws.project, 'Bash', { command: 'rm -rf /' }));
      expect(JSON.parse(deny.text)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      // 9 of 12 used: each worker counting alone would allow 12 more of its own.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await postFresh(`${served.url}/v1/fire/UserPromptSubmit`, prompt(ws.project))).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    } finally {
      served.child.kill('SIGTERM');
    }
    const { code } = await served.exited;
    expect(code).toBe(0);
    expect(served.stderr().match(/\[worker \d+\]: stopped/g)).toHaveLength(2);
    // Both workers wrote one chain: every answered call is there, and it verifies.
    expect(queryAudit(db)).toHaveLength(12);
    const verified = await runCli(['audit', 'verify', '--audit', db], { cwd: ws.configDir });
    expect(verified.code, verified.stderr).toBe(0);
  });

  it('replaces a worker that dies, and its workers go when the primary is killed', async () => {
    const config = writeConfig(ws.configDir, PID_CONFIG, 'pid2.config.mjs');
    const served = await spawnServe(['--config', config, '--workers', '2'], { cwd: ws.configDir, env: { HOOKWISE_TOKEN: TOKEN } });
    const before = new Set(await pidsAnswering(served, 4));
    expect(before.size).toBe(2);
    const [victim] = before;
    process.kill(victim!, 'SIGKILL');
    await until(() => served.stderr().includes(`worker ${victim} exited (signal SIGKILL); starting another`), 'the restart');
    // The replacement takes connections once it listens: ask until two workers answer.
    const after = new Set<number>();
    for (let round = 0; round < 100 && after.size < 2; round++) {
      for (const pid of await pidsAnswering(served, 2)) after.add(pid);
      after.delete(victim!);
      if (after.size < 2) await new Promise((r) => setTimeout(r, 200));
    }
    expect(after.size).toBe(2);
    served.child.kill('SIGKILL');
    await served.exited;
    // Orphans would keep the port and the policy running: each worker sees its channel close and stops.
    await until(() => [...after].every((pid) => !alive(pid)), 'the workers to stop after their primary');
  });

  it('while a config broken on disk fails every replacement, the other worker goes on answering', async () => {
    const config = writeConfig(ws.configDir, PID_CONFIG, 'pid3.config.mjs');
    const served = await spawnServe(['--config', config, '--workers', '2', '--no-watch'], {
      cwd: ws.configDir,
      env: { HOOKWISE_TOKEN: TOKEN },
    });
    try {
      const [victim, survivor] = new Set(await pidsAnswering(served, 4));
      writeConfig(ws.configDir, 'export default { hooks: [ broken ] };\n', 'pid3.config.mjs');
      process.kill(victim!, 'SIGKILL');
      // The first replacement fails on the broken config; the next one waits longer.
      await until(() => /exited \(code 1\); starting another in 500 ms/.test(served.stderr()), 'a failed replacement');
      expect(await pidsAnswering(served, 3)).toEqual([survivor, survivor, survivor]);
      expect(served.stderr()).not.toMatch(/stopping/);
    } finally {
      served.child.kill('SIGTERM');
    }
    expect((await served.exited).code).toBe(0);
  });

  it('a config that cannot load stops everything, and says so once', async () => {
    const broken = writeConfig(ws.configDir, 'export default { hooks: [ nope ] };\n', 'broken-workers.config.mjs');
    const r = await runCli(['serve', '--port', '0', '--workers', '3', '--config', broken], {
      cwd: ws.configDir,
      env: { HOOKWISE_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split(broken).length - 1).toBe(1);
    expect(r.stderr).toMatch(/exited \(code 1\) before it listened; stopping/);
    const zero = await runCli(['serve', '--port', '0', '--workers', '0', '--config', broken], {
      cwd: ws.configDir,
      env: { HOOKWISE_TOKEN: TOKEN },
    });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('--workers (or auto) must be an integer of at least 1, got "0"');
  });
});

describe('counters shared through the primary', () => {
  /** Two ends of an IPC channel, as node:cluster gives the primary (a Worker) and the worker (process). */
  function channel() {
    const primary = new EventEmitter() as EventEmitter & { send: (m: unknown) => void; isConnected: () => boolean };
    const worker = new EventEmitter() as EventEmitter & { send?: (m: unknown) => void; connected: boolean };
    worker.connected = true;
    primary.isConnected = () => worker.connected;
    primary.send = (m) => setImmediate(() => worker.emit('message', m));
    worker.send = (m) => setImmediate(() => primary.emit('message', m));
    return { primary, worker };
  }

  it("increments, reads and sets once in the one store, under each view's prefix", async () => {
    const store = new MemoryCounterStore();
    const a = channel();
    const b = channel();
    serveWorkerCounters(a.primary as never, store);
    serveWorkerCounters(b.primary as never, store);
    const one = new WorkerCounterStore(a.worker as never).scoped('t:');
    const two = new WorkerCounterStore(b.worker as never).scoped('t:');
    expect(await Promise.all([one.increment('k'), two.increment('k', 2), one.increment('k')])).toEqual([1, 3, 4]);
    expect(await two.get('k')).toBe(4);
    expect(await store.get('t:k')).toBe(4);
    expect(await one.setOnce('s', 7)).toBe(7);
    expect(await two.setOnce('s', 9)).toBe(7);
    expect(await two.get('missing')).toBe(0);
  });

  it('fails what waits when the primary goes, and everything after', async () => {
    const { primary, worker } = channel();
    primary.send = () => {}; // the primary never answers
    serveWorkerCounters(primary as never, new MemoryCounterStore());
    primary.removeAllListeners('message');
    const store = new WorkerCounterStore(worker as never);
    const waiting = store.increment('k');
    worker.connected = false;
    worker.emit('disconnect');
    await expect(waiting).rejects.toThrow('the serve primary holding the counters is gone');
    await expect(store.get('k')).rejects.toThrow('the serve primary holding the counters is gone');
  });
});
