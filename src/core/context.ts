import type { CounterStore } from './counter-store.js';
import type { HookInput } from './input.js';
import { sameData } from './same-data.js';
import type { HookContext, HookLogger, PolicyFile } from './spec.js';
import type { Session, SessionState } from './state.js';
import { AbortedError } from './errors.js';

/** What every hook of one fire shares: made once per fire, read by each hook's Context. */
export interface FireScope {
  readonly sessionId: string;
  readonly session: Session;
  readonly cwd: string | undefined;
  readonly projectDir: string | undefined;
  readonly policyFiles: readonly PolicyFile[];
  readonly dryRun: boolean;
  readonly logger: HookLogger;
  readonly outer: AbortSignal | undefined;
  /** What the host passed as `env`; frozen into `frozenEnv` on first read. */
  readonly hostEnv: Readonly<Record<string, string | undefined>> | undefined;
  frozenEnv: Readonly<Record<string, string | undefined>> | undefined;
  readonly counters: CounterStore | undefined;
}

const NO_ENV: Readonly<Record<string, string | undefined>> = Object.freeze({});

/**
 * The `ctx` a handler gets; a new one for every hook call, so a hook that keeps its
 * ctx never sees or annotates another hook's run. The AbortController is made only
 * if the handler asks for the signal.
 */
export class Context implements HookContext {
  // Declared, then set in the constructor: emitted class fields cost each hook call an initializer call.
  declare readonly hookName: string;
  declare private readonly scope: FireScope;
  /** The sealed input this hook call sees (a subclass may offer views of it). */
  declare protected readonly input: HookInput;
  declare private controller: AbortController | undefined;
  declare annotations: Record<string, unknown> | undefined;
  /**
   * A writable copy of `input.tool_input` that a subclass hands out (a view for
   * handlers written to edit their arguments in place). The engine reads it after
   * the handler: a copy that differs from the input becomes the hook's `modify`,
   * recorded like a returned one. Undefined until a view makes it.
   */
  declare protected draft: Record<string, unknown> | undefined;

  constructor(hookName: string, scope: FireScope, input: HookInput) {
    this.hookName = hookName;
    this.scope = scope;
    this.input = input;
    this.controller = undefined;
    this.annotations = undefined;
    this.draft = undefined;
  }

  /** The tool input as the handler left it in the writable view, when it changed it; else undefined. */
  edited(): Record<string, unknown> | undefined {
    const draft = this.draft;
    if (draft === undefined || sameData(draft, this.input.tool_input)) return undefined;
    return draft;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      const outer = this.scope.outer;
      if (outer) {
        if (outer.aborted) this.controller.abort(outer.reason);
        else outer.addEventListener('abort', () => this.controller!.abort(outer.reason), { once: true });
      }
    }
    return this.controller.signal;
  }

  get outer(): AbortSignal | undefined {
    return this.scope.outer;
  }

  get sessionId(): string {
    return this.scope.sessionId;
  }

  get cwd(): string | undefined {
    return this.scope.cwd;
  }

  get projectDir(): string | undefined {
    return this.scope.projectDir;
  }

  get policyFiles(): readonly PolicyFile[] {
    return this.scope.policyFiles;
  }

  get dryRun(): boolean {
    return this.scope.dryRun;
  }

  get counters(): CounterStore | undefined {
    return this.scope.counters;
  }

  get env(): Readonly<Record<string, string | undefined>> {
    const scope = this.scope;
    if (scope.frozenEnv === undefined) scope.frozenEnv = scope.hostEnv ? Object.freeze({ ...scope.hostEnv }) : NO_ENV;
    return scope.frozenEnv;
  }

  get logger(): HookLogger {
    return this.scope.logger;
  }

  get state(): SessionState {
    return this.scope.session.state;
  }

  annotate(fields: Record<string, unknown>): void {
    this.annotations = { ...this.annotations, ...fields };
  }

  abort(reason: string): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(new AbortedError(reason));
  }
}
