import net from 'node:net';

/**
 * The real services some tests need: PostgreSQL and Redis on this machine, or the
 * URLs in HOOKWISE_TEST_PG / HOOKWISE_TEST_REDIS. When one cannot be reached, its
 * tests are skipped with one line saying what to start; under CI (CI=true) they fail
 * instead, so CI always runs them.
 *
 *   const redis = await requireRedis();        // top level of the test file
 *   describe.skipIf(!redis.url)('...', () => { ... redis.url! ... });
 */
export interface Service {
  /** The URL to use, or undefined when the service is unreachable (and not under CI). */
  url: string | undefined;
  /** Why it was skipped: the one line the test file prints. */
  skipReason?: string;
}

const SERVICES = {
  redis: {
    env: 'HOOKWISE_TEST_REDIS',
    fallback: 'redis://127.0.0.1:6379',
    start: 'start one with `redis-server --port 6379 --save "" --daemonize yes`',
  },
  postgres: {
    env: 'HOOKWISE_TEST_PG',
    fallback: 'postgres://postgres@127.0.0.1:5432/test',
    start: 'start PostgreSQL on 127.0.0.1:5432 with trust auth and a database `test` (e.g. `pg_ctlcluster 16 main start`)',
  },
} as const;

/** Redis for this test file; skip (or under CI, fail) when it cannot be reached. */
export function requireRedis(): Promise<Service> {
  return requireService('redis');
}

/** PostgreSQL's URL for this test file, or undefined to skip (under CI, it fails) when it cannot be reached. */
export async function requirePostgres(): Promise<string | undefined> {
  return (await requireService('postgres')).url;
}

/**
 * A key prefix (Redis) or schema name (PostgreSQL) no other test file or run uses,
 * so parallel files never see each other's data.
 */
export function uniqueNamespace(label: string): string {
  return `hwtest_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

async function requireService(name: keyof typeof SERVICES): Promise<Service> {
  const spec = SERVICES[name];
  const url = process.env[spec.env] || spec.fallback;
  const problem = await unreachable(url);
  if (!problem) return { url };
  const line = `${name} is not reachable at ${url} (${problem}): ${spec.start}, or set ${spec.env} to its URL`;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`CI=true and ${line}`);
  process.stderr.write(`skipped: ${line}\n`);
  return { url: undefined, skipReason: line };
}

/** Opens a TCP connection to the URL's host and port; undefined when it connects. */
function unreachable(url: string): Promise<string | undefined> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol.startsWith('redis') ? 6379 : 5432));
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port });
    const done = (problem: string | undefined) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(problem);
    };
    const timer = setTimeout(() => done('no answer within 3 s'), 3000);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/** Deletes every Redis key under `prefix` (a test file's namespace). */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    await client.quit();
  }
}
