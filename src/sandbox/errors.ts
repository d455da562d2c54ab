import { HookwiseError } from '../core/errors.js';

/** A `sandbox` option (or `sandboxExec`'s) that is not one hookwise reads: the message names the guard, the field and what it takes. */
export class SandboxOptionError extends HookwiseError {
  override readonly code = 'SANDBOX_OPTION';
}

/** No sandbox can run here (bubblewrap or its network bridge missing, a socket path too long): the message says what to install or set. */
export class SandboxUnavailableError extends HookwiseError {
  override readonly code = 'SANDBOX_UNAVAILABLE';
}

/** An allowlisted host the sandbox's network proxy refuses: it has no address, or only addresses of this machine or its link. */
export class NetworkHostError extends HookwiseError {
  override readonly code = 'NETWORK_HOST';
}
