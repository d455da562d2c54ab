/** A Map-like store private to one session. */
export interface SessionState {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): this;
  has(key: string): boolean;
  delete(key: string): boolean;
}

/** Per-session bookkeeping the engine keeps: state, and the `once` hooks that ran. */
export class Session {
  readonly state: SessionState = new Map<string, unknown>() as unknown as SessionState;
  readonly onceRan = new Set<string>();
}

/** What async hooks returned, waiting for the session's next outcome. */
export interface Undelivered {
  context: string[];
  messages: string[];
}

export class Sessions {
  private readonly byId = new Map<string, Session>();
  /** Only sessions with something undelivered are here, so "none at all" is one size check. */
  private readonly undelivered = new Map<string, Undelivered>();

  /** The session of the last get(): a host fires for one session at a time, so this saves a map lookup per fire. */
  private lastId: string | undefined;
  private last: Session | undefined;

  get(id: string): Session {
    if (id === this.lastId) return this.last!;
    let session = this.byId.get(id);
    if (!session) {
      session = new Session();
      this.byId.set(id, session);
    }
    this.lastId = id;
    this.last = session;
    return session;
  }

  peek(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /** Keep an async hook's context and message for the session's next outcome. */
  deliverLater(id: string, context: string | undefined, message: string | undefined): void {
    if (context === undefined && message === undefined) return;
    let waiting = this.undelivered.get(id);
    if (!waiting) this.undelivered.set(id, (waiting = { context: [], messages: [] }));
    if (context !== undefined) waiting.context.push(context);
    if (message !== undefined) waiting.messages.push(message);
  }

  /** What waits for this session, removed as it is handed over. */
  takeUndelivered(id: string): Undelivered | undefined {
    const waiting = this.undelivered.get(id);
    if (waiting) this.undelivered.delete(id);
    return waiting;
  }

  get anyUndelivered(): boolean {
    return this.undelivered.size > 0;
  }

  end(id: string): void {
    if (id === this.lastId) this.lastId = this.last = undefined;
    this.byId.delete(id);
    this.undelivered.delete(id);
  }
}
