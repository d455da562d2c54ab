import { HookwiseError } from '../core/errors.js';

/** What an agent sent on stdin cannot be read as one of its hook calls (a missing or unknown event, a tool input of the wrong shape); the message names the field. */
export class HostInputError extends HookwiseError {
  override readonly code = 'HOST_INPUT';
}

/** hookwise's answer to an agent is larger than a hook answer may be; it is refused, not cut. */
export class AnswerTooLargeError extends HookwiseError {
  override readonly code = 'ANSWER_TOO_LARGE';
}

/** A coding agent hookwise has no host for: the message lists the ones it answers. */
export class UnknownAgentError extends HookwiseError {
  override readonly code = 'UNKNOWN_AGENT';
}

/** hookwise cannot write the state it keeps for an agent between calls (Cline's task state): the message names the file. */
export class HostStateError extends HookwiseError {
  override readonly code = 'HOST_STATE';
}

/**
 * `hookwise init` cannot write an agent's wiring as asked (a hook file of someone
 * else's in the way, a settings file of the wrong shape): the message names the file and the fix.
 */
export class WiringRefused extends HookwiseError {
  override readonly code = 'WIRING_REFUSED';
}
