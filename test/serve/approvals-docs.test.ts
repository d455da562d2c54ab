import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApprovals, type AnyApprovalStore } from '../../src/approvals/index.js';
import { hashToken, loadTenantsFile } from '../../src/serve/tenants.js';
import { GUARDS_CONFIG, repoRoot, workspace, writeConfig } from './helpers.js';
import { spawnServe, type Served } from './spawn.js';

// Every example of "The web page and HTTP API" in docs/approvals.md, run as written
// (`npx hookwise` as this checkout's CLI from dist/, the port serve got instead of 8787).
const DOC = readFileSync(path.join(repoRoot, 'docs', 'approvals.md'), 'utf8');
function example(name: string): string {
  const m = new RegExp(`<!-- example: ${name} -->\\n(?:\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`|(\\|[\\s\\S]*?)\\n\\n)`).exec(DOC);
  if (!m) throw new Error(`docs/approvals.md has no example "${name}"`);
  return m[1] ?? m[2]!;
}
const commands = (block: string) =>
  block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));

const ALICE = 'alice-example-token-change-me';
const ws = workspace('approvals-docs');
let served: Served;
let store: AnyApprovalStore;
let port: string;

beforeAll(async () => {
  writeConfig(ws.configDir, GUARDS_CONFIG, 'policy.config.mjs');
  writeFileSync(path.join(ws.configDir, 'tenants.json'), example('approvals-tenants'));
  const [line] = commands(example('approvals-serve'));
  expect(line).toMatch(/^npx hookwise serve /);
  served = await spawnServe(line!.replace(/^npx hookwise serve /, '').split(' '), { cwd: ws.configDir });
  port = new URL(served.url).port;
  store = await openApprovals(path.join(ws.configDir, 'audit.db'));
});
afterAll(async () => {
  await store?.close();
  if (served) {
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }
  ws.cleanup();
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
function sh(script: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script.replaceAll('8787', port)], { cwd: ws.configDir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const ask = (toolUseId: string) =>
  store.request({
    tenant: 'acme',
    sessionId: 'doc-session',
    event: 'PreToolUse',
    tool: 'Bash',
    input: { command: 'npm publish' },
    toolUseId,
  });

describe('docs/approvals.md: the web page and HTTP API', () => {
  it("hash and tenants: the file loads, and the approvers' hashes are their tokens'", async () => {
    const [t] = await loadTenantsFile(path.join(ws.configDir, 'tenants.json'));
    expect(t!.approvals?.approvers?.map((a) => [a.name, a.tokenSha256])).toEqual([
      ['alice', hashToken(ALICE)],
      ['bob', hashToken('bob-example-token-change-me')],
    ]);
    expect(t!.tokenSha256).toBe(hashToken('acme-example-token-change-me'));
    const block = example('approvals-hash');
    const hashed = await sh(commands(block)[0]!, { ALICE_TOKEN: ALICE });
    expect(block).toContain(`# ${hashed.stdout.trim()}   (for ALICE_TOKEN=${ALICE})`);
  });

  it('curl: lists the pending approval, approves it with a note; a second answer is the 409 the table shows', async () => {
    const pending = await ask('toolu_doc_curl');
    const [list, approve] = commands(example('approvals-curl'));
    const listed = await sh(list!, { ALICE_TOKEN: ALICE });
    expect(listed.stderr).toBe('');
    const body = JSON.parse(listed.stdout) as { you: unknown; approvals: Array<{ id: string; allowed: unknown }> };
    expect(body.you).toEqual({ name: 'alice', kind: 'approver', tenant: 'acme' });
    expect(body.approvals.find((a) => a.id === pending.id)?.allowed).toEqual({ approve: true, session: false });

    const approved = JSON.parse((await sh(approve!, { ALICE_TOKEN: ALICE, ID: pending.id })).stdout);
    expect(approved).toMatchObject({ id: pending.id, state: 'approved', answeredBy: 'alice', note: 'fine, keep it short' });

    const again = JSON.parse((await sh(approve!, { ALICE_TOKEN: ALICE, ID: pending.id })).stdout) as { error: string; answeredBy: string };
    const row = example('approvals-statuses')
      .split('\n')
      .find((r) => r.startsWith('| 409 '))!;
    const shown = /`\{ "error": "(.*?)", "answeredBy": "alice"/.exec(row)![1]!;
    const pattern = shown
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('<id>', '\\w+')
      .replace('<time>', '\\S+');
    expect(again.error).toMatch(new RegExp(`^${pattern}$`));
    expect(again.answeredBy).toBe('alice');
  });

  it('statuses: 401 carries nothing but the error', async () => {
    const pending = await ask('toolu_doc_401');
    const [list] = commands(example('approvals-curl'));
    const refused = await sh(`${list!.replace('curl -s ', 'curl -s -w "\\n%{http_code}" ')}`, { ALICE_TOKEN: 'not-a-token-of-anyone' });
    expect(refused.stdout).toBe('{"error":"hookwise serve: unknown token"}\n401');
    expect(refused.stdout).not.toContain(pending.id);
  });

  it('routes: each one the table lists is served', async () => {
    const pending = await ask('toolu_doc_routes');
    const rows = DOC.slice(DOC.indexOf('#### HTTP API'), DOC.indexOf('<!-- example: approvals-curl -->'))
      .split('\n')
      .filter((r) => /^\| `(GET|POST) /.test(r));
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      const [, method, route] = /^\| `(GET|POST) ([^`]+)`/.exec(row)!;
      const url = `${served.url}${route!.replace('<id>', pending.id)}`;
      const controller = new AbortController();
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
        signal: controller.signal,
        ...(method === 'POST' && { body: '{}' }),
      });
      expect(res.status, `${method} ${route}`).toBe(route!.endsWith('/approve') ? 200 : route!.endsWith('/deny') ? 409 : 200);
      controller.abort();
    }
  });

  it('events: the stream starts with the snapshot the comment shows', async () => {
    const [command] = commands(example('approvals-events'));
    const comment = example('approvals-events')
      .split('\n')
      .filter((l) => l.startsWith('# '))
      .map((l) => l.slice(2));
    const child = spawn('sh', ['-c', `exec ${command!.replaceAll('8787', port)}`], { env: { ...process.env, ALICE_TOKEN: ALICE } });
    const closed = new Promise((resolve) => child.once('close', resolve));
    const head = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n\n')) resolve(out.slice(0, out.indexOf('\n\n')));
      });
    });
    child.kill('SIGTERM');
    await closed;
    const [event, data] = head.split('\n');
    expect(event).toBe(comment[0]);
    const [before, after] = comment[1]!.split('…');
    expect(data!.startsWith(before!)).toBe(true);
    expect(data).toContain(after!.split('[')[0]);
    expect(JSON.parse(data!.slice('data: '.length))).toMatchObject({ you: { name: 'alice', kind: 'approver', tenant: 'acme' } });
  });
});
