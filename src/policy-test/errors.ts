import { HookwiseError } from '../core/errors.js';
/** A test file, transcript or flag that cannot be used: one line naming the file, the field and the fix. */
export class PolicyTestError extends HookwiseError {
  override readonly code = 'POLICY_TEST';
  constructor(
    readonly file: string,
    message: string,
    readonly field?: string,
  ) {
    super(`${file}${field ? ` ${field}` : ''}: ${message}`);
  }
}
