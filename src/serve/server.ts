import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FireOptions } from '../core/engine.js';
import { checkEvent, EventNameError } from '../compat/event-aliases.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { MemoryCounterStore } from '../counters/memory.js';
import type { CounterStore } from '../counters/types.js';
import type { ApprovalStore } from '../approvals/types.js';
import { answerCall } from '../hosts/call.js';
import { claudeCodeHost } from '../hosts/claude-code/index.js';
import { claudeCodeFailure, sniffEvent, sniffToolName } from './answers.js';
import { ApprovalsApi } from './approvals-api.js';
import { sendApprovalsPage } from './approvals-page.js';
import { BodyTooLarge, readBody, sendEmpty, sendJson, sendJsonText } from './http.js';
import { TenantPolicy, type EngineAttach } from './policy.js';
import { Refusal } from './refusal.js';
import { realProjectDir } from './roots.js';
import { hookRoute } from './routes.js';
import { hashToken, type Tenant } from './tenants.js';

export interface ServeOptions {
  tenants: Tenant[];
  /** Default 127.0.0.1: only this machine can call. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Shared counters for rate limits and budgets. Default: this process only. */
  counters?: CounterStore;
  /** Attached to every engine a tenant's config builds (audit, telemetry). */
  attach?: EngineAttach;
  /** Default 4 MiB. */
  maxBodyBytes?: number;
  /** Reload a tenant's config when its files change. Default true. */
  watch?: boolean;
  /**
   * Resolves once what the fire recorded is durable (the audit store's flush); the answer
   * waits for it, so an answered call is never missing from the trail. Default: nothing to wait for.
   */
  acknowledge?: () => Promise<void>;
  /** Extra readiness check (Redis answers, ...). */
  ready?: () => Promise<boolean>;
  /** One line for the operator. Default: stderr. */
  log?: (line: string) => void;
  /**
   * Pending approvals (docs/approvals.md): the API under /v1/approvals and the page at
   * /approvals answer them. The caller opens and closes it. Without it, the API answers 503.
   */
  approvals?: ApprovalStore;
  /** How often the event stream reads a watched tenant's pending approvals. Default 1000 ms. */
  approvalsPollMs?: number;
}

export interface HookServer {
  readonly url: string;
  readonly server: Server;
  readonly policies: ReadonlyMap<string, TenantPolicy>;
  /** Stop accepting, finish what is in flight, drain async hooks. The caller then flushes its stores. */
  close(): Promise<void>;
}

/** Valid Authorization headers remembered (a tenant's token, as its callers spell the header). */
const KNOWN_HEADERS = 256;

/** Header naming the project the guards work in, for callers whose input has no `cwd`. */
export const PROJECT_DIR_HEADER = 'x-hookwise-project-dir';
/** On /v1/claude-code, a refusal answered as a 200 block carries its real status here. */
export const ERROR_HEADER = 'x-hookwise-error';

/** What is known of a request so far: its event and tool, once read (or guessed from a cut body). */
interface Seen {
  event?: string;
  tool?: string;
  /** The body (or its head), to find the tool in when a refusal needs it: not read on every call. */
  body?: string;
}

interface Request {
  policy: TenantPolicy;
  counters: CounterStore;
  event: string;
  input: HookInput;
  projectDir: string;
}

/**
 * `hookwise serve`: one HTTP server, any number of tenants, each with its own engine.
 * Every answer to a blockable event that could not be decided is a block (docs/serve.md).
 */
export async function startHookServer(options: ServeOptions): Promise<HookServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`hookwise serve: ${line}\n`));
  const counters = options.counters ?? new MemoryCounterStore();
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const attach = options.attach ?? (() => () => {});
  const policies = new Map<string, TenantPolicy>();
  const byToken = new Map<string, { policy: TenantPolicy; counters: CounterStore }>();
  for (const tenant of options.tenants) {
    const policy = new TenantPolicy(tenant, { attach, log });
    await policy.load();
    policies.set(tenant.name, policy);
    byToken.set(tenant.tokenSha256, { policy, counters: counters.scoped(`tenant:${tenant.name}:`) });
  }
  if (options.watch !== false) for (const policy of policies.values()) policy.watch();
  const approvals = new ApprovalsApi(options.approvals, options.tenants, {
    log,
    ...(options.approvalsPollMs && { pollMs: options.approvalsPollMs }),
  });

  let draining = false;
  let inflight = 0;
  let idle: (() => void) | undefined;

  // A hash per call costs more than the rest of authentication: each valid header is hashed once.
  const byHeader = new Map<string, { policy: TenantPolicy; counters: CounterStore }>();
  const authenticate = (req: IncomingMessage, event: string | undefined) => {
    const header = req.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith('Bearer ') || header.length === 7) {
      throw new Refusal(401, 'hookwise serve: missing bearer token (Authorization: Bearer <token>)', event);
    }
    const known = byHeader.get(header);
    if (known) return known;
    const found = byToken.get(hashToken(header.slice(7).trim()));
    if (!found) throw new Refusal(401, 'hookwise serve: unknown token', event);
    // Only headers that carried a valid token are kept, so callers cannot grow the map.
    if (byHeader.size >= KNOWN_HEADERS) byHeader.clear();
    byHeader.set(header, found);
    return found;
  };

  const rateLimit = async (tenant: Tenant, store: CounterStore, event: string) => {
    const limit = tenant.rateLimit;
    if (!limit) return;
    const window = Math.floor(Date.now() / limit.windowMs);
    const used = await store.increment(`rate:${window}`, 1, { ttlMs: limit.windowMs * 2 });
    if (used > limit.requests) {
      throw new Refusal(
        429,
        `hookwise serve: tenant ${tenant.name} is over its rate limit of ${limit.requests} requests per ${limit.windowMs / 1000} s`,
        event,
      );
    }
  };

  /**
   * Body, token, input, rate limit and project: everything a fire needs, or the refusal.
   * `seen` keeps what is known of the request as it is learnt (the event, the tool), so
   * a refusal can be that event's failure answer.
   */
  const prepare = async (req: IncomingMessage, eventFromPath: string | undefined, seen: Seen): Promise<Request> => {
    let body: string;
    try {
      body = await readBody(req, maxBody);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        seen.event = eventFromPath ?? sniffEvent(error.head) ?? seen.event;
        seen.body = error.head;
        throw new Refusal(413, `hookwise serve: ${error.message}`, seen.event);
      }
      throw error;
    }
    const sniffed = eventFromPath ?? sniffEvent(body) ?? seen.event;
    seen.event = sniffed;
    seen.body = body;
    const { policy, counters: store } = authenticate(req, sniffed);
    let input: unknown;
    try {
      input = JSON.parse(body);
    } catch (error) {
      throw new Refusal(400, `hookwise serve: the body is not JSON: ${(error as Error).message}`, sniffed);
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new Refusal(400, 'hookwise serve: the body must be a JSON object', sniffed);
    const named = eventFromPath ?? (input as HookInput).hook_event_name;
    if (typeof named !== 'string' || named === '')
      throw new Refusal(400, 'hookwise serve: hook_event_name is missing; expected the JSON Claude Code sends a hook', sniffed);
    seen.event = named;
    const toolName = (input as HookInput).tool_name;
    seen.tool = typeof toolName === 'string' ? toolName : undefined;
    let event: string;
    try {
      event = checkEvent(named);
    } catch (error) {
      if (error instanceof EventNameError) throw new Refusal(400, `hookwise serve: ${error.message}`, named);
      throw error;
    }
    const header = req.headers[PROJECT_DIR_HEADER];
    const projectDir = typeof header === 'string' && header !== '' ? header : (input as HookInput).cwd;
    if (typeof projectDir !== 'string' || !path.isAbsolute(projectDir)) {
      throw new Refusal(
        400,
        `hookwise serve: name the project directory as an absolute path (input cwd or the X-Hookwise-Project-Dir header)`,
        event,
      );
    }
    let resolved = path.resolve(projectDir);
    const roots = policy.tenant.projectRoots;
    if (roots) {
      const real = realProjectDir(resolved, roots);
      if (real === undefined)
        throw new Refusal(
          403,
          `hookwise serve: ${projectDir} is outside the project roots of tenant ${policy.tenant.name} (or does not exist), links followed`,
          event,
        );
      resolved = real;
    }
    // Awaited only when there is a limit: every promise on this path is paid for on every tool call.
    if (policy.tenant.rateLimit) await rateLimit(policy.tenant, store, event);
    return { policy, counters: store, event, input: input as HookInput, projectDir: resolved };
  };

  const acknowledge = batched(options.acknowledge);
  /** The tenant's engine, and what a fire there carries: the project, the tenant's counters. */
  const engineOf = (r: Request) => {
    const engine = r.policy.engine;
    if (!engine) throw new Refusal(503, `hookwise serve: tenant ${r.policy.tenant.name} has no loaded config`, r.event);
    // `projectDir` is where the guards work; `cwd` carries it too for engines that only know cwd.
    // The tenant's counters ride in the fire options (ctx.counters), not an AsyncLocalStorage:
    // once used, that taxes every promise and socket of the process (7% of an answer, docs/benchmarks.md).
    const fireOptions: FireOptions = { cwd: r.projectDir, projectDir: r.projectDir, counters: r.counters };
    return { engine, fireOptions };
  };
  const fire = (r: Request): Promise<Outcome> => {
    const { engine, fireOptions } = engineOf(r);
    const fired = engine.fire(r.event, r.input, fireOptions);
    return acknowledge ? fired.then((outcome) => acknowledge().then(() => outcome)) : fired;
  };

  // Claude Code's hook over HTTP: the one hook-call pipeline (src/hosts/call.ts) with the
  // Claude Code host, as `hookwise claude-code` answers; a failure is serve's own (`fail`).
  const claudeCode = async (req: IncomingMessage, res: ServerResponse, seen: Seen) => {
    const r = await prepare(req, undefined, seen);
    const answer = await answerCall({
      host: claudeCodeHost,
      raw: r.input,
      projectDir: r.projectDir,
      failOpen: false,
      throwFailures: true,
      engineFor: async () => ({ ...engineOf(r), ...(acknowledge && { recorded: acknowledge }) }),
    });
    if ('stdout' in answer && answer.stdout) sendJsonText(res, 200, answer.stdout);
    else sendEmpty(res, 200);
  };

  const fireApi = async (req: IncomingMessage, res: ServerResponse, event: string, seen: Seen) => {
    const r = await prepare(req, event, seen);
    sendJson(res, 200, await fire(r));
  };

  /** A refusal or a crash, answered so that it never lets a blockable event through. */
  const fail = (res: ServerResponse, error: unknown, claude: boolean, seen: Seen) => {
    const refusal =
      error instanceof Refusal
        ? error
        : new Refusal(500, `hookwise serve: internal error: ${error instanceof Error ? error.message : String(error)}`, seen.event);
    if (refusal.status >= 500) log(`${refusal.message}`);
    if (res.headersSent) return void res.destroy();
    // Claude Code treats any non-2xx answer as a non-blocking error and runs the tool,
    // so to Claude Code a refusal is a 200 with the event's failure answer (a block, or the output held back).
    const tool = seen.tool ?? (seen.body === undefined ? undefined : sniffToolName(seen.body));
    const answer = claude ? claudeCodeFailure(refusal.event ?? seen.event, refusal.message, tool) : undefined;
    if (answer) sendJson(res, 200, answer, { [ERROR_HEADER]: String(refusal.status) });
    else sendJson(res, refusal.status, { error: refusal.message, ...refusal.extra });
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const seen: Seen = {};
    let claude = false;
    try {
      if (draining) res.setHeader('connection', 'close');
      const hook = hookRoute(url);
      if (hook?.kind === 'claude-code') {
        claude = true;
        if (hook.pathEvent !== undefined) seen.event = hook.pathEvent;
      }
      if (req.method === 'POST' && hook?.kind === 'claude-code') return await claudeCode(req, res, seen);
      if (req.method === 'POST' && hook?.kind === 'fire') return await fireApi(req, res, hook.event, seen);
      if (req.method === 'GET' && url === '/healthz') return sendJson(res, 200, { ok: true });
      if (req.method === 'GET' && url === '/readyz') return await readyz(res);
      // Parsed only off the hook routes: those answer on every tool call.
      const parsed = parseUrl(url);
      if (ApprovalsApi.owns(parsed.pathname)) return await approvals.route(req, res, parsed);
      if (req.method === 'GET' && parsed.pathname === '/approvals') return sendApprovalsPage(res);
      const known = hook !== undefined || url === '/healthz' || url === '/readyz' || parsed.pathname === '/approvals';
      sendJson(res, known ? 405 : 404, {
        error: known ? `hookwise serve: ${req.method} is not allowed on ${url}` : `hookwise serve: no route ${url}`,
      });
    } catch (error) {
      fail(res, error, claude, seen);
    }
  };

  const readyz = async (res: ServerResponse) => {
    const problems: string[] = [];
    if (draining) problems.push('draining');
    for (const p of policies.values()) if (!p.engine) problems.push(`tenant ${p.tenant.name} has no config`);
    if (options.ready && !(await options.ready().catch(() => false))) problems.push('a shared store does not answer');
    sendJson(res, problems.length ? 503 : 200, problems.length ? { ready: false, problems } : { ready: true });
  };

  const answered = () => {
    if (--inflight === 0) idle?.();
  };
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    inflight++;
    res.once('close', answered);
    void route(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    server,
    policies,
    close() {
      closing ??= (async () => {
        draining = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Event streams never finish on their own: they end here, or the drain would wait for them.
        approvals.close();
        server.closeIdleConnections();
        if (inflight > 0) await new Promise<void>((resolve) => (idle = resolve));
        server.closeAllConnections();
        await stopped;
        await Promise.all([...policies.values()].map((p) => p.close()));
      })();
      return closing;
    },
  };
}

function parseUrl(url: string): URL {
  try {
    return new URL(url, 'http://serve');
  } catch {
    throw new Refusal(400, `hookwise serve: ${JSON.stringify(url)} is not a valid path`);
  }
}

/** Calls made in the same turn of the event loop share one run of `fn` (one audit commit for many answers). */
function batched(fn: (() => Promise<void>) | undefined): (() => Promise<void>) | undefined {
  if (!fn) return undefined;
  let pending: Promise<void> | undefined;
  return () =>
    (pending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pending = undefined;
      return fn();
    }));
}
