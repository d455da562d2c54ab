import { eventInfo } from '../../core/events.js';
import { block, deny, type HookResult, type ResultExtras } from '../../core/results.js';

/** A refusal as the event understands it: `deny` where there is a permission decision, `block` elsewhere. */
export function refuse(event: string, reason: string, extras?: ResultExtras): HookResult {
  return eventInfo(event).permission ? deny(reason, extras) : block(reason, extras);
}
