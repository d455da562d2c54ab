/** A Map-like store private to one session. */
export interface SessionState {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): this;
  has(key: string): boolean;
  delete(key: string): boolean;
}

/** Per-session bookkeeping the engine keeps: state, `once` hooks that ran, async leftovers. */
export class Session {
  readonly state: SessionState = new Map<string, unknown>() as unknown as SessionState;
  readonly onceRan = new Set<string>();
  /** What async hooks returned, delivered with the next outcome of the session. */
  pendingContext: string[] = [];
  pendingMessages: string[] = [];
}

export class Sessions {
  private readonly byId = new Map<string, Session>();

  get(id: string): Session {
    let session = this.byId.get(id);
    if (!session) {
      session = new Session();
      this.byId.set(id, session);
    }
    return session;
  }

  peek(id: string): Session | undefined {
    return this.byId.get(id);
  }

  end(id: string): void {
    this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }
}
