import { HookwiseError } from '../core/errors.js';

/** A built-in guard's option that cannot be used: the message names the guard, the field and what it takes. */
export class GuardOptionError extends HookwiseError {
  override readonly code = 'GUARD_OPTION';
}
