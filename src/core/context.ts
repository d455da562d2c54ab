import type { HookContext, HookLogger } from './spec.js';
import type { Session, SessionState } from './state.js';

/** The `ctx` a handler gets. The AbortController is made only if the handler asks for the signal. */
export class Context implements HookContext {
  private controller: AbortController | undefined;
  annotations: Record<string, unknown> | undefined;

  constructor(
    public hookName: string,
    readonly sessionId: string,
    private readonly session: Session,
    private readonly cwdOption: string | undefined,
    readonly logger: HookLogger,
    readonly outer: AbortSignal | undefined,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.outer) {
        if (this.outer.aborted) this.controller.abort(this.outer.reason);
        else this.outer.addEventListener('abort', () => this.controller!.abort(this.outer!.reason), { once: true });
      }
    }
    return this.controller.signal;
  }

  get cwd(): string {
    return this.cwdOption ?? process.cwd();
  }

  get state(): SessionState {
    return this.session.state;
  }

  annotate(fields: Record<string, unknown>): void {
    this.annotations = { ...this.annotations, ...fields };
  }

  abort(reason: string): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(new Error(reason));
  }

  /** Ready the context for the next hook of the same sequential fire. */
  reuse(hookName: string): this {
    this.hookName = hookName;
    this.controller = undefined;
    this.annotations = undefined;
    return this;
  }
}
