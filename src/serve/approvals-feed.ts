import type { Approval, ApprovalStore } from '../approvals/types.js';
import { ApprovalsFeedClosedError } from './errors.js';

/** One live reader of a tenant's approvals (an SSE stream). */
export interface FeedListener {
  /**
   * `request`: a new pending request; `answered`: answered or expired; `gone`: no longer
   * in the store (the last known record).
   */
  send(event: 'request' | 'answered' | 'gone', approval: Approval): void;
  /** Called on every poll: a chance to keep an idle connection open. */
  tick(): void;
  /** The feed is closing: end the stream. */
  end(): void;
}

interface Watch {
  tenant: string;
  listeners: Set<FeedListener>;
  /** What this watch last knew to be pending, by id. */
  pending: Map<string, Approval>;
  /** Ids known to be answered, with when: a poll that started before the answer must not bring them back. */
  settled: Map<string, number>;
  ready: Promise<void>;
  timer?: NodeJS.Timeout;
  failing: boolean;
}

/** Forgotten after this long: no poll runs that long. */
const SETTLED_MEMORY_MS = 5 * 60_000;

/**
 * Live updates of pending approvals for serve's event stream. Requests are written by
 * other processes (a waiting run, another replica), so each tenant someone watches is
 * polled, one cheap `list({ state: 'pending' })` per interval however many watch it; an
 * answer given through this server is passed on at once. Nothing is polled while no one
 * watches, and the timers never keep the process alive.
 */
export class ApprovalFeed {
  private readonly watches = new Map<string, Watch>();
  private closed = false;

  constructor(
    private readonly store: ApprovalStore,
    private readonly options: { pollMs: number; log: (line: string) => void },
  ) {}

  /**
   * Start listening to a tenant; resolves with what is pending now (newest first). From
   * then on the listener hears every change to that set, and nothing it already has.
   */
  async subscribe(tenant: string, listener: FeedListener): Promise<Approval[]> {
    if (this.closed) throw new ApprovalsFeedClosedError('the approvals feed is closed');
    let watch = this.watches.get(tenant);
    if (!watch) {
      const created: Watch = {
        tenant,
        listeners: new Set(),
        pending: new Map(),
        settled: new Map(),
        ready: Promise.resolve(),
        failing: false,
      };
      created.ready = this.poll(created).then(() => this.schedule(created));
      created.ready.catch(() => this.watches.get(tenant) === created && this.watches.delete(tenant));
      this.watches.set(tenant, created);
      watch = created;
    }
    await watch.ready;
    if (this.closed) throw new ApprovalsFeedClosedError('the approvals feed is closed');
    // The snapshot and the listener are taken together (no await between): no change falls in a gap.
    watch.listeners.add(listener);
    return [...watch.pending.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  unsubscribe(tenant: string, listener: FeedListener): void {
    const watch = this.watches.get(tenant);
    if (!watch?.listeners.delete(listener) || watch.listeners.size > 0) return;
    clearTimeout(watch.timer);
    this.watches.delete(tenant);
  }

  /** An answer given through this server: its tenant's listeners hear it now rather than at the next poll. */
  answered(approval: Approval): void {
    const watch = this.watches.get(approval.tenant);
    if (!watch) return;
    watch.settled.set(approval.id, Date.now());
    if (watch.pending.delete(approval.id)) for (const l of watch.listeners) l.send('answered', approval);
  }

  /** Ends every stream and stops polling. */
  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) {
      clearTimeout(watch.timer);
      for (const l of watch.listeners) l.end();
      watch.listeners.clear();
    }
    this.watches.clear();
  }

  private schedule(watch: Watch): void {
    if (this.closed || this.watches.get(watch.tenant) !== watch) return;
    watch.timer = setTimeout(() => {
      void this.poll(watch)
        .then(
          () => {
            if (watch.failing) this.options.log(`approvals feed: tenant ${watch.tenant}: the store answers again`);
            watch.failing = false;
          },
          (error: Error) => {
            if (!watch.failing) this.options.log(`approvals feed: tenant ${watch.tenant}: cannot read the store: ${error.message}`);
            watch.failing = true;
          },
        )
        .finally(() => {
          for (const l of watch.listeners) l.tick();
          this.schedule(watch);
        });
    }, this.options.pollMs);
    watch.timer.unref();
  }

  /** Compare what is pending now with what the watch knew, and tell the listeners the difference. */
  private async poll(watch: Watch): Promise<void> {
    const started = Date.now();
    const now = await this.store.list({ tenant: watch.tenant, state: 'pending' });
    const current = new Map(now.filter((a) => !watch.settled.has(a.id)).map((a) => [a.id, a]));
    const gone = [...watch.pending.keys()].filter((id) => !current.has(id));
    const settled = await Promise.all(gone.map((id) => this.store.get(id)));
    // Everything below runs without an await: a subscriber sees the state before or after, never half.
    for (const [i, id] of gone.entries()) {
      const last = settled[i];
      if (last?.state === 'pending' && !watch.settled.has(id)) {
        current.set(id, last);
        continue;
      }
      const known = watch.pending.get(id)!;
      watch.pending.delete(id);
      watch.settled.set(id, Date.now());
      for (const l of watch.listeners) l.send(last ? 'answered' : 'gone', last ?? known);
    }
    for (const [id, approval] of current) {
      if (watch.pending.has(id) || watch.settled.has(id)) continue;
      watch.pending.set(id, approval);
      for (const l of watch.listeners) l.send('request', approval);
    }
    for (const [id, at] of watch.settled) if (at < started - SETTLED_MEMORY_MS) watch.settled.delete(id);
  }
}
