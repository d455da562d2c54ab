/**
 * The base of every error hookwise throws on purpose. `code` is stable and written in
 * docs/api.md ("Errors"): match on it, not on the message, which is for people and may
 * get better. `error instanceof HookwiseError` tells hookwise's own errors from others.
 */
export class HookwiseError extends Error {
  /** Stable, SCREAMING_SNAKE_CASE; each subclass names its own. */
  readonly code: string = 'HOOKWISE';

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // The class's own name, so a stack trace and `error.name` say which error this is.
    this.name = new.target.name;
  }
}

/** A call was aborted: by its caller's signal, a deadline, or the caller going away; the message says which. */
export class AbortedError extends HookwiseError {
  override readonly code = 'ABORTED';
}

/** The shell splitter was called before the parser loaded: `await ensureShellSplitter()` first. */
export class ShellParserNotLoadedError extends HookwiseError {
  override readonly code = 'SHELL_PARSER_NOT_LOADED';
}
