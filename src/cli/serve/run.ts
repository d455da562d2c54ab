import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServeFlags } from '../commands/serve.js';
import { UserError } from '../errors.js';
import { findConfigModule } from '../../config/discover.js';
import type { ApprovalStore } from '../../approvals/types.js';
import type { AnyAuditStore } from '../../audit/open.js';
import type { AuditSink } from '../../audit/types.js';
import type { HookEngine } from '../../core/engine.js';
import type { CounterStore } from '../../counters/types.js';
import { startHookServer } from '../../serve/server.js';
import { hashToken, loadTenantsFile, TenantsError, type Tenant } from '../../serve/tenants.js';
import { WorkerCounterStore } from '../../serve/worker-counters.js';
import { runPrimary, type ListeningMessage } from '../../serve/workers.js';
import { keepWasmOnBaseline } from '../wasm-baseline.js';

const who = cluster.isWorker ? `hookwise serve [worker ${process.pid}]` : 'hookwise serve';
const log = (line: string) => process.stderr.write(`${who}: ${line}\n`);

/** `hookwise serve`: resolves with the exit code once the server has drained and stopped. */
export async function runServe(flags: ServeFlags): Promise<number> {
  try {
    return await serve(flags);
  } finally {
    // A worker's channel to its primary would keep it alive, and the primary waits for
    // it to exit. Disconnecting this way (not process.disconnect) keeps its exit code.
    if (cluster.isWorker && cluster.worker?.isConnected()) cluster.worker.disconnect();
  }
}

async function serve(flags: ServeFlags): Promise<number> {
  keepWasmOnBaseline();
  const port = integer(flags.port, '--port', 0);
  const maxBodyBytes = integer(flags.maxBody, '--max-body', 1);
  const drainTimeoutMs = integer(flags.drainTimeout, '--drain-timeout', 0);
  const workers = flags.workers === 'auto' ? os.availableParallelism() : integer(flags.workers ?? '1', '--workers (or auto)', 1);
  if (workers > 1 && cluster.isPrimary) return runPrimary({ count: workers, shareMemoryCounters: isMemory(flags.counters), log });
  const tenants = await tenantsFrom(flags);

  const stack: Array<() => Promise<void>> = [];
  const unwind = async () => {
    for (const step of stack.reverse()) await step().catch((error: Error) => log(`shutdown: ${error.message}`));
  };
  try {
    const counters = await openCounters(flags);
    stack.push(() => counters.close());
    const audit = await openAudit(flags.audit);
    if (audit) stack.push(() => audit.close());
    const approvals = audit && (await openApprovalStore(flags.audit!, audit, tenants));
    if (approvals) stack.push(() => approvals.close());
    const otlp = flags.otlp ? await (await import('../../telemetry/otlp.js')).startOtlpExport(flags.otlp) : undefined;
    if (otlp) stack.push(() => otlp.shutdown());
    const { auditEngine } = await import('../../audit/engine.js');
    const { instrumentEngine } = await import('../../telemetry/instrument.js');
    const attach = (engine: HookEngine, tenant: Tenant) => {
      const offs = [instrumentEngine(engine, { attributes: { 'hookwise.tenant': tenant.name } })];
      if (audit) offs.push(auditEngine(engine, tenantAudit(audit, tenant.name)));
      return () => offs.forEach((off) => off());
    };
    const ping = (counters as { ping?: () => Promise<boolean> }).ping?.bind(counters);
    const server = await startHookServer({
      tenants,
      host: flags.host,
      port,
      counters,
      attach,
      maxBodyBytes,
      watch: flags.watch,
      ...(ping && { ready: ping }),
      ...(audit && { acknowledge: () => audit.flush() }),
      ...(approvals && { approvals }),
    }).catch((error: Error) => {
      throw new UserError(error.message);
    });
    const signal = await listening(server.url, tenants);
    const why = signal === 'disconnect' ? 'the primary is gone' : signal;
    log(`${why}: draining (no new connections; in-flight requests finish, then the audit is flushed)`);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      server.close().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), drainTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      server.server.closeAllConnections();
      log(`requests still in flight after --drain-timeout ${drainTimeoutMs} ms were cut`);
    }
    await unwind();
    log('stopped');
    return timedOut ? 1 : 0;
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * Says the server listens (a worker tells its primary, which says it once for all), then
 * waits for the signal to stop. A worker also stops when its primary is gone: it must
 * not keep the port.
 */
function listening(url: string, tenants: Tenant[]): Promise<NodeJS.Signals | 'disconnect'> {
  // Listening for the signals before saying so: a supervisor may stop us as soon as it reads the line.
  const signalled = new Promise<NodeJS.Signals | 'disconnect'>((resolve) => {
    // A worker keeps its handlers: a terminal's Ctrl-C reaches it and the primary's SIGTERM
    // follows, and a second signal must not kill it mid-drain (the primary waits for it).
    // Alone, a second signal still ends the process at once, as users expect of Ctrl-C twice.
    const on = cluster.isWorker ? process.on.bind(process) : process.once.bind(process);
    on('SIGTERM', () => resolve('SIGTERM'));
    on('SIGINT', () => resolve('SIGINT'));
    if (cluster.isWorker) process.once('disconnect', () => resolve('disconnect'));
  });
  const names = tenants.map((t) => t.name);
  if (cluster.isWorker) process.send!({ hookwise: 'listening', url, tenants: names } satisfies ListeningMessage);
  else process.stdout.write(`hookwise serve: listening on ${url} (tenants: ${names.join(', ')})\n`);
  return signalled;
}

const isMemory = (url: string | undefined) => url === undefined || url === 'memory:';

async function tenantsFrom(flags: ServeFlags): Promise<Tenant[]> {
  if (flags.tenants) {
    if (flags.config?.length || flags.tokenFile || flags.rateLimit)
      throw new UserError("--tenants names each tenant's config, token and rate limit; drop --config, --token-file and --rate-limit");
    try {
      return await loadTenantsFile(flags.tenants);
    } catch (error) {
      if (error instanceof TenantsError) throw new UserError(error.message);
      throw error;
    }
  }
  const token = flags.tokenFile ? readToken(flags.tokenFile) : process.env.HOOKWISE_TOKEN?.trim();
  // The command hooks a config runs inherit this process's environment; they need no token.
  delete process.env.HOOKWISE_TOKEN;
  if (!token)
    throw new UserError(
      'serve needs a token: --token-file <file> or HOOKWISE_TOKEN (callers send it as "Authorization: Bearer <token>"), or --tenants <file>',
    );
  if (token.length < 16) throw new UserError('the token is shorter than 16 characters; use a random one, e.g. `openssl rand -hex 32`');
  const config = flags.config?.length
    ? flags.config.map((f) => path.resolve(f))
    : [findConfigModule(process.cwd())].filter((f): f is string => f !== undefined);
  if (config.length === 0)
    throw new UserError(`no hookwise.config.{ts,mts,mjs,js} in ${process.cwd()}; name the policy with --config <file>`);
  const perMinute = flags.rateLimit === undefined ? undefined : integer(flags.rateLimit, '--rate-limit', 1);
  return [
    { name: 'default', tokenSha256: hashToken(token), config, ...(perMinute && { rateLimit: { requests: perMinute, windowMs: 60_000 } }) },
  ];
}

function readToken(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UserError(`--token-file ${file}: ${(error as Error).message}`);
  }
}

async function openCounters(flags: ServeFlags): Promise<CounterStore> {
  // A worker's in-memory counters are its primary's, shared by every worker.
  if (cluster.isWorker && isMemory(flags.counters)) return new WorkerCounterStore();
  const { openCounterStore } = await import('../../counters/index.js');
  try {
    return await openCounterStore(flags.counters, { keyPrefix: flags.countersPrefix });
  } catch (error) {
    throw new UserError(`--counters: ${(error as Error).message}`);
  }
}

/**
 * The approvals beside the audit trail (docs/approvals.md): same database, same chain
 * (its records go through the audit store already open), each tenant's policy from the
 * tenants file.
 */
async function openApprovalStore(target: string, audit: AnyAuditStore, tenants: Tenant[]): Promise<ApprovalStore> {
  const { openApprovals } = await import('../../approvals/open.js');
  const policies = new Map(tenants.map((t) => [t.name, t.approvals]));
  try {
    return await openApprovals(target, { audit, policy: (tenant) => policies.get(tenant) });
  } catch (error) {
    throw new UserError(`--audit ${target}: cannot open the approvals store: ${(error as Error).message}`);
  }
}

/** The audit sink for `--audit`: a SQLite file, or a postgres:// URL shared by replicas (docs/fleet.md). */
async function openAudit(target: string | undefined): Promise<AnyAuditStore | undefined> {
  if (!target) return undefined;
  const { openAuditStore } = await import('../../audit/open.js');
  try {
    return await openAuditStore(target);
  } catch (error) {
    throw new UserError(`--audit ${target}: ${(error as Error).message}`);
  }
}

/** Every record says which tenant it came from. */
/** Each tenant's session is its own chain on PostgreSQL (`stream`), so tenants never share a head. */
function tenantAudit(audit: AuditSink, tenant: string): AuditSink {
  return {
    append: (record) => audit.append({ ...record, stream: `${tenant}/${record.sessionId}`, data: { ...record.data, tenant } }),
    flush: () => audit.flush(),
    close: () => Promise.resolve(),
  };
}

function integer(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be an integer of at least ${min}, got ${JSON.stringify(value)}`);
  return n;
}
