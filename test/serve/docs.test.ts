import { availableParallelism } from 'node:os';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookServer, type HookServer } from '../../src/serve/index.js';
import { hashToken, loadTenantsFile } from '../../src/serve/tenants.js';
import { ATTR, METRIC } from '../../src/telemetry/index.js';
import { cliPath } from '../cli/run-cli.js';
import pg from 'pg';
import { requirePostgres, requireRedis, uniqueNamespace } from '../support/services.js';
import { GUARDS_CONFIG, repoRoot, tenant, TOKEN, workspace, writeConfig } from './helpers.js';
import { unsealed } from '../support/sandbox-line.js';

// Every example of docs/serve.md and docs/fleet.md, run as written (with `npx hookwise`
// as this checkout's CLI, and the port the test's server got instead of 8787).
const redis = await requireRedis();
const postgres = await requirePostgres();
const doc = (name: string) => readFileSync(path.join(repoRoot, 'docs', name), 'utf8');
function example(page: string, name: string): string {
  const m = new RegExp(`<!-- example: ${name} -->\\n(?:\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`|(\\|[\\s\\S]*?)\\n\\n)`).exec(doc(page));
  if (!m) throw new Error(`${page} has no example "${name}"`);
  return m[1] ?? m[2]!;
}

const ws = workspace('docs');
let server: HookServer;
beforeAll(async () => {
  server = await startHookServer({ tenants: [tenant('default', writeConfig(ws.configDir, GUARDS_CONFIG))], port: 0, log: () => {} });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});
const port = () => new URL(server.url).port;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
function sh(script: string, options: { cwd: string; env?: Record<string, string>; stdin?: string }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    // A script that exits before reading its stdin closes the pipe: EPIPE here is not the test's result (its code and output are).
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Run a `npx hookwise serve ...` line of a doc until it listens, then SIGTERM it; resolves with what it printed. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

function serveLine(
  line: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ listening: string; code: number | null; stderr: string }> {
  const command = line
    .replace(/^npx hookwise /, `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} `)
    .replace(/--port \d+/, '')
    .replace(/--host 0\.0\.0\.0/, '--host 127.0.0.1');
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `${command} --port 0`], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    let listening = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!listening && /listening on/.test(stdout)) {
        listening = stdout.trim();
        child.kill('SIGTERM');
      }
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ listening, code, stderr }));
  });
}

describe('docs/serve.md', () => {
  it('start: serves with a token from openssl and prints the line the doc shows', async () => {
    const block = example('serve.md', 'start');
    const [exportLine, serveCmd] = block.split('\n').filter((l) => l && !l.startsWith('#'));
    writeConfig(ws.configDir, GUARDS_CONFIG);
    const token = (await sh(`${exportLine}; printf %s "$HOOKWISE_TOKEN"`, { cwd: ws.configDir })).stdout;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const ran = await serveLine(serveCmd!, ws.configDir, { HOOKWISE_TOKEN: token });
    expect(ran.listening).toMatch(/^hookwise serve: listening on http:\/\/127\.0\.0\.1:\d+ \(tenants: default\)$/);
    expect(block).toContain('# hookwise serve: listening on http://127.0.0.1:8787 (tenants: default)');
    expect(ran.code).toBe(0);
  });

  it('workers: --workers auto starts one server per core and says how many', async () => {
    const block = example('serve.md', 'workers');
    const [serveCmd] = block.split('\n').filter((l) => l && !l.startsWith('#'));
    writeConfig(ws.configDir, GUARDS_CONFIG);
    const ran = await serveLine(serveCmd!, ws.configDir, { HOOKWISE_TOKEN: TOKEN });
    const cores = availableParallelism();
    expect(ran.listening).toMatch(
      new RegExp(`^hookwise serve: listening on http://127\\.0\\.0\\.1:\\d+ \\(tenants: default; ${cores} workers\\)$`),
    );
    expect(block).toMatch(/# hookwise serve: listening on http:\/\/127\.0\.0\.1:8787 \(tenants: default; \d+ workers\)/);
    expect(ran.stderr.match(/\[worker \d+\]: stopped/g)).toHaveLength(cores);
    expect(ran.code).toBe(0);
  });

  it("settings: exactly the entry hookwise init writes, and Claude Code's request through it is answered", async () => {
    const settings = JSON.parse(example('serve.md', 'settings')) as {
      hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    };
    const entry = {
      type: 'http',
      url: 'http://127.0.0.1:8787/v1/claude-code',
      headers: { Authorization: 'Bearer $HOOKWISE_TOKEN' },
      allowedEnvVars: ['HOOKWISE_TOKEN'],
      timeout: 10,
    };
    for (const groups of Object.values(settings.hooks)) expect(groups).toEqual([{ hooks: [entry] }]);
    // As Claude Code sends it: $VAR filled from the environment for the listed variables.
    const headers = Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, v.replace('$HOOKWISE_TOKEN', TOKEN)]));
    const res = await fetch(entry.url.replace('8787', port()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        session_id: 's',
        cwd: ws.project,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /' },
      }),
    });
    expect(await res.json()).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
  });

  it('fire: the curl example returns the Outcome its comment shows', async () => {
    const block = example('serve.md', 'fire');
    const command = block
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n')
      .replace('8787', port());
    const ran = await sh(command, { cwd: ws.project, env: { HOOKWISE_TOKEN: TOKEN, PWD: ws.project } });
    expect(ran.stderr).toBe('');
    const outcome = JSON.parse(ran.stdout) as { event: string; decision: string; blocked: boolean; reason: string };
    expect(outcome).toMatchObject({ event: 'PreToolUse', decision: 'deny', blocked: true });
    expect(outcome.reason).toMatch(/^`rm -rf` targets \/, outside the workspace /);
  });

  it('fallback: forwards the answer while the server is up, blocks with exit 2 when it is down', async () => {
    const script = path.join(ws.configDir, 'hookwise-serve.sh');
    writeFileSync(script, example('serve.md', 'fallback'));
    chmodSync(script, 0o755);
    const input = JSON.stringify({
      session_id: 's',
      cwd: ws.project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    const up = await sh(script, { cwd: ws.project, stdin: input, env: { HOOKWISE_TOKEN: TOKEN, HOOKWISE_URL: server.url } });
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const allowed = await sh(script, {
      cwd: ws.project,
      stdin: input.replace('rm -rf /', 'git status'),
      env: { HOOKWISE_TOKEN: TOKEN, HOOKWISE_URL: server.url },
    });
    // Allowed: the answer carries the command in its OS sandbox, and no decision.
    expect(allowed.code).toBe(0);
    const rewritten = JSON.parse(allowed.stdout).hookSpecificOutput;
    expect(rewritten.permissionDecision).toBeUndefined();
    expect(unsealed(rewritten.updatedInput.command)).toContain('/bwrap ');
    const down = await sh(script, { cwd: ws.project, stdin: input, env: { HOOKWISE_TOKEN: TOKEN, HOOKWISE_URL: 'http://127.0.0.1:1' } });
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('hookwise serve did not answer; blocked until it is back');
  });
});

describe('docs/fleet.md', () => {
  it('one-server: starts with an audit file', async () => {
    const dir = path.join(ws.configDir, 'one');
    mkdirSync(dir, { recursive: true });
    writeConfig(dir, GUARDS_CONFIG, 'policy.config.mjs');
    const [exportLine, serveCmd] = example('fleet.md', 'one-server').split('\n').filter(Boolean);
    const token = (await sh(`${exportLine}; printf %s "$HOOKWISE_TOKEN"`, { cwd: dir })).stdout;
    const ran = await serveLine(serveCmd!, dir, { HOOKWISE_TOKEN: token });
    expect(ran.listening).toMatch(/listening on/);
    expect(ran.code).toBe(0);
  });

  it("tenants and hash: the example file loads, and its hash is the hash command's output", async () => {
    const dir = path.join(ws.configDir, 'fleet');
    mkdirSync(path.join(dir, 'acme'), { recursive: true });
    mkdirSync(path.join(dir, 'ci'), { recursive: true });
    writeConfig(path.join(dir, 'acme'), GUARDS_CONFIG, 'policy.config.mjs');
    writeConfig(path.join(dir, 'ci'), GUARDS_CONFIG);
    writeFileSync(path.join(dir, 'tenants.json'), example('fleet.md', 'tenants'));
    const tenants = await loadTenantsFile(path.join(dir, 'tenants.json'));
    expect(tenants.map((t) => [t.name, t.config])).toEqual([
      ['acme', [path.join(dir, 'acme', 'policy.config.mjs')]],
      ['ci', [path.join(dir, 'ci', 'hookwise.config.mjs')]],
    ]);
    const hashBlock = example('fleet.md', 'hash');
    const hashed = await sh(hashBlock.split('\n')[0]!, { cwd: dir, env: { ACME_TOKEN: 'acme-example-token-change-me' } });
    expect(hashBlock).toContain(`# ${hashed.stdout.trim()}`);
    expect(tenants[0]!.tokenSha256).toBe(hashToken('acme-example-token-change-me'));
    const ran = await serveLine(example('fleet.md', 'tenants-serve').trim(), dir);
    expect(ran.listening).toMatch(/\(tenants: acme, ci\)$/);
    expect(ran.code).toBe(0);
  });

  it.skipIf(!redis.url || !postgres)('replicas: each line starts a replica on Redis and the one PostgreSQL trail', async () => {
    const dir = path.join(ws.configDir, 'fleet');
    const lines = example('fleet.md', 'replicas').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const schema = uniqueNamespace('fleet_docs');
    const trail = `${postgres}${postgres!.includes('?') ? '&' : '?'}schema=${schema}`;
    try {
      for (const line of lines) {
        expect(line).toContain('--audit postgres://hookwise@127.0.0.1:5432/hookwise');
        const ran = await serveLine(
          line.replace('redis://127.0.0.1:6379', redis.url!).replace('postgres://hookwise@127.0.0.1:5432/hookwise', `'${trail}'`),
          dir,
          // docs/fleet.md: the key is required with PostgreSQL, the same for every replica.
          { HOOKWISE_AUDIT_KEY: 'fleet-docs-audit-key-0123456789' },
        );
        expect(ran.listening, ran.stderr).toMatch(/\(tenants: acme, ci\)$/);
        expect(ran.code).toBe(0);
      }
      // Both replicas migrated and opened the same store: one schema, one audit_log.
      const client = new pg.Client({ connectionString: postgres });
      await client.connect();
      try {
        const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schema]);
        expect(tables.rows.map((r) => r.table_name)).toContain('audit_log');
      } finally {
        await client.end();
      }
    } finally {
      await dropSchema(postgres!, schema);
    }
  });

  it('spans and metrics: the tables name exactly what instrumentEngine records', () => {
    const names = (table: string) => [...table.matchAll(/`([a-z_.]+)(?: <[a-z]+>)?`/g)].map((m) => m[1]!);
    const metrics = example('fleet.md', 'metrics');
    const metricNames = metrics
      .split('\n')
      .slice(2)
      .map((row) => names(row)[0]);
    expect(metricNames.sort()).toEqual(Object.values(METRIC).sort());
    const attrs = new Set<string>(Object.values(ATTR));
    const used = [...names(example('fleet.md', 'spans')), ...names(metrics)].filter((n) => !n.startsWith('hookwise.fire') || attrs.has(n));
    for (const name of used.filter((n) => !Object.values(METRIC).includes(n as never) && n !== 'hookwise.hook'))
      expect(attrs.has(name), name).toBe(true);
  });
});
