import { HookwiseError } from '../core/errors.js';
/** An error the CLI prints as one line (no stack) before exiting 1. */
export class UserError extends HookwiseError {
  override readonly code = 'USER';
}

/**
 * Runs `run`; an error whose name is in `names` (a store that is locked, a key that
 * is wrong: what the user has to fix) becomes a UserError, anything else stays a bug.
 */
export async function asUserErrors<T>(names: ReadonlySet<string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && names.has(error.name)) throw new UserError(error.message);
    throw error;
  }
}

/** A flag or environment variable whose value cannot be used (a timeout that is not a positive whole number of milliseconds): the message names it. Not a UserError: in a hook call it fails closed. */
export class FlagValueError extends HookwiseError {
  override readonly code = 'FLAG_VALUE';
}
