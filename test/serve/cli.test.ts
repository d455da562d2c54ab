import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/audit/index.js';
import { runCli } from '../cli/run-cli.js';
import { GUARDS_CONFIG, post, preToolUse, TOKEN, workspace, writeConfig } from './helpers.js';
import { spawnServe } from './spawn.js';

const ws = workspace('cli');
afterAll(() => ws.cleanup());

describe('hookwise serve (spawned)', () => {
  it('serves, and on SIGTERM drains, flushes every audit record and exits 0', async () => {
    const config = writeConfig(ws.configDir, GUARDS_CONFIG);
    const tokenFile = path.join(ws.configDir, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const db = path.join(ws.configDir, 'audit.db');
    const served = await spawnServe(['--config', config, '--token-file', tokenFile, '--audit', db], { cwd: ws.configDir });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(`${served.url}/v1/claude-code`, preToolUse(ws.project, 'Bash', { command: i % 2 ? 'rm -rf /' : 'git status' }, `s${i % 4}`)),
      ),
    );
    expect(answers.filter((a) => a.text.includes('"permissionDecision":"deny"'))).toHaveLength(10);
    served.child.kill('SIGTERM');
    const { code } = await served.exited;
    expect(code).toBe(0);
    expect(served.stderr()).toMatch(/SIGTERM: draining/);
    expect(served.stderr()).toMatch(/stopped/);
    const rows = queryAudit(db);
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.decision === 'deny')).toHaveLength(10);
    expect(rows.every((r) => (r.data as { tenant?: string }).tenant === 'default')).toBe(true);
  });

  it('keeps the token from the hooks it runs: a command hook does not see HOOKWISE_TOKEN', async () => {
    const settings = path.join(ws.configDir, 'settings.json');
    const hook = { type: 'command', command: `sh -c 'if [ -n "$HOOKWISE_TOKEN" ]; then echo "token leaked" >&2; exit 2; fi'` };
    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }));
    const served = await spawnServe(['--config', settings], { cwd: ws.configDir, env: { HOOKWISE_TOKEN: TOKEN } });
    try {
      const a = await post(`${served.url}/v1/claude-code`, preToolUse(ws.project, 'Bash', { command: 'ls' }));
      expect(a.status).toBe(200);
      expect(a.text).toBe('');
    } finally {
      served.child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
    }
  });

  it('refuses to start without a token, with a broken config, or with an unknown store', async () => {
    const good = writeConfig(ws.configDir, GUARDS_CONFIG, 'good.config.mjs');
    const noToken = await runCli(['serve', '--port', '0', '--config', good], { cwd: ws.configDir, unset: ['HOOKWISE_TOKEN'] });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/serve needs a token: --token-file <file> or HOOKWISE_TOKEN/);
    const broken = writeConfig(ws.configDir, 'export default { hooks: [ nope ] };\n', 'broken.config.mjs');
    const bad = await runCli(['serve', '--port', '0', '--config', broken], { cwd: ws.configDir, env: { HOOKWISE_TOKEN: TOKEN } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(broken);
    const store = await runCli(['serve', '--port', '0', '--config', good, '--counters', 'mysql://x'], {
      cwd: ws.configDir,
      env: { HOOKWISE_TOKEN: TOKEN },
    });
    expect(store.code).toBe(1);
    expect(store.stderr).toMatch(/--counters: unknown counter store "mysql:\/\/x"/);
    // Nothing listens on port 1: the store cannot open, and serve says which flag and why before it listens.
    const pg = await runCli(['serve', '--port', '0', '--config', good, '--audit', 'postgres://postgres@127.0.0.1:1/test'], {
      cwd: ws.configDir,
      env: { HOOKWISE_TOKEN: TOKEN },
    });
    expect(pg.code).toBe(1);
    expect(pg.stderr).toMatch(/--audit postgres:\/\/postgres@127\.0\.0\.1:1\/test: .*ECONNREFUSED/);
  });

  it('reads a tenants file and names the field that is wrong', async () => {
    const file = path.join(ws.configDir, 'tenants.json');
    writeFileSync(file, JSON.stringify({ tenants: [{ name: 'acme', tokenSha256: 'abc', config: 'good.config.mjs' }] }));
    const bad = await runCli(['serve', '--port', '0', '--tenants', file], { cwd: ws.configDir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${file}: tenants.0.tokenSha256: the sha256 of the token as 64 lowercase hex digits`);
  });
});
