import { eventInfo } from '../core/events.js';
import { emptyOutcome, type Outcome } from '../core/outcome.js';

/**
 * What a fire that could not run answers: on an event that can be blocked, a block
 * (a `deny` where the event carries a permission decision), so a failure never lets
 * the thing through; on any other event, nothing but the reason as a system message.
 */
export function failureOutcome(event: string, reason: string): Outcome {
  const info = eventInfo(event);
  const outcome = emptyOutcome(info.name);
  if (info.blockable) {
    outcome.blocked = true;
    outcome.reason = reason;
    if (info.permission) outcome.decision = 'deny';
  } else {
    outcome.systemMessage = reason;
  }
  return outcome;
}

const EVENT_NAME = /"hook_event_name"\s*:\s*"([A-Za-z_]{1,64})"/;

/** The event a (possibly cut, possibly invalid) request body names, when it names one. */
export function sniffEvent(body: string): string | undefined {
  return EVENT_NAME.exec(body)?.[1];
}
