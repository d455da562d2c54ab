import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { queryAuditTrail, verifyAuditTrail } from '../../src/audit/index.js';
import { hashToken } from '../../src/serve/tenants.js';
import { requirePostgres, uniqueNamespace } from '../support/services.js';
import { GUARDS_CONFIG, post, preToolUse, workspace, writeConfig } from './helpers.js';
import { spawnServe } from './spawn.js';

const postgres = await requirePostgres();
const ws = workspace('pg-trail');
const schema = uniqueNamespace('serve_trail');
afterAll(async () => {
  ws.cleanup();
  if (!postgres) return;
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe.skipIf(!postgres)('hookwise serve on a PostgreSQL trail', () => {
  it('chains each tenant session on its own stream, signed with the shared key, and verifies', async () => {
    const trail = `${postgres}${postgres!.includes('?') ? '&' : '?'}schema=${schema}`;
    writeConfig(ws.configDir, GUARDS_CONFIG, 'policy.config.mjs');
    const tenants = path.join(ws.configDir, 'tenants.json');
    const tokens = { acme: 'acme-token-0123456789abcdef', ci: 'ci-token-0123456789abcdef00' };
    writeFileSync(
      tenants,
      JSON.stringify({
        tenants: Object.entries(tokens).map(([name, token]) => ({ name, tokenSha256: hashToken(token), config: 'policy.config.mjs' })),
      }),
    );
    const key = 'fleet-key-for-the-test-0123456789';
    const served = await spawnServe(['--tenants', tenants, '--audit', trail], { cwd: ws.configDir, env: { HOOKWISE_AUDIT_KEY: key } });
    try {
      // The same session id under two tenants: two chains, never one shared head.
      for (const [name, token] of Object.entries(tokens)) {
        const denied = await post(
          `${served.url}/v1/claude-code`,
          preToolUse(ws.project, 'Bash', { command: 'rm -rf /' }, 'shared'),
          {},
          token,
        );
        expect(denied.text, name).toContain('"permissionDecision":"deny"');
        const allowed = await post(
          `${served.url}/v1/claude-code`,
          preToolUse(ws.project, 'Bash', { command: 'git status' }, 'shared'),
          {},
          token,
        );
        expect(allowed.status, name).toBe(200);
      }
    } finally {
      served.child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
    }
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    try {
      const streams = await client.query(`SELECT stream, count(*)::int AS n FROM ${schema}.audit_log GROUP BY stream ORDER BY stream`);
      expect(streams.rows).toEqual([
        { stream: 'acme/shared', n: 2 },
        { stream: 'ci/shared', n: 2 },
      ]);
    } finally {
      await client.end();
    }
    const rows = await queryAuditTrail(trail);
    // The guards have no opinion on `git status` (decision null) and deny `rm -rf /`.
    expect(rows.map((r) => `${(r.data as { tenant?: string }).tenant} ${r.decision}`).sort()).toEqual([
      'acme deny',
      'acme null',
      'ci deny',
      'ci null',
    ]);
    const verified = await verifyAuditTrail(trail, { key });
    expect(verified.ok).toBe(true);
    expect(verified.signed).toBe(true);
    // With the wrong key the signed heads do not verify: the key is what vouches for them.
    expect((await verifyAuditTrail(trail, { key: 'another-key-0123456789abcdef' })).ok).toBe(false);
  });
});
