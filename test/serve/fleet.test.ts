import { afterAll, describe, expect, it } from 'vitest';
import { RedisCounterStore } from '../../src/counters/index.js';
import { startHookServer, type HookServer } from '../../src/serve/index.js';
import { dropRedisPrefix, requireRedis, uniqueNamespace } from '../support/services.js';
import { post, preToolUse, tenant, TOKEN, workspace, writeConfig } from './helpers.js';

const redis = await requireRedis();
const prefix = `${uniqueNamespace('serve_fleet')}:`;
const ws = workspace('fleet');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  if (redis.url) await dropRedisPrefix(redis.url, prefix);
  ws.cleanup();
});

/** Replicas that share nothing but Redis. */
async function replicas(n: number, config: string, extra: Parameters<typeof tenant>[3] = {}): Promise<HookServer[]> {
  const servers: HookServer[] = [];
  for (let i = 0; i < n; i++) {
    const counters = await RedisCounterStore.connect(redis.url!, { keyPrefix: prefix });
    const server = await startHookServer({ tenants: [tenant('acme', config, TOKEN, extra)], port: 0, counters, log: () => {} });
    cleanups.push(async () => {
      await server.close();
      await counters.close();
    });
    servers.push(server);
  }
  return servers;
}

describe.skipIf(!redis.url)('replicas sharing Redis', () => {
  it('count one budget: a session stops at exactly its limit, whichever replica answers', async () => {
    const config = writeConfig(
      ws.configDir,
      `import { defineConfig } from 'hookwise';
import { budgetGuard } from 'hookwise/guards';
export default defineConfig({ hooks: [budgetGuard({ maxToolCalls: 25 })] });
`,
      'budget.config.mjs',
    );
    const servers = await replicas(3, config);
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        post(`${servers[i % 3]!.url}/v1/claude-code`, preToolUse(ws.project, 'Read', { file_path: `${ws.project}/a` }, 'shared-session')),
      ),
    );
    const stopped = answers.filter((a) => a.text.includes('"continue":false'));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.length - stopped.length).toBe(25);
    const probe = await RedisCounterStore.connect(redis.url!, { keyPrefix: prefix });
    expect(await probe.get('tenant:acme:budget:guard:budget:shared-session:toolCalls')).toBe(90);
    await probe.close();
  });

  it('count one rate limit per tenant across replicas', async () => {
    const config = writeConfig(ws.configDir, 'export default { hooks: [] };\n', 'empty.config.mjs');
    const servers = await replicas(2, config, { rateLimit: { requests: 10, windowMs: 3_600_000 } });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(`${servers[i % 2]!.url}/v1/fire/PreToolUse`, { tool_name: 'Read', tool_input: {}, cwd: ws.project }).then((a) => a.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });
});
