import { HookwiseError } from '../core/errors.js';

/** A path policy option that cannot be used: the message names the field and what it takes. */
export class PathPolicyOptionError extends HookwiseError {
  override readonly code = 'PATH_POLICY_OPTION';
}
