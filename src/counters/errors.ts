import { HookwiseError } from '../core/errors.js';

/** A counter store URL hookwise does not read: it takes redis://host:port[/db] or memory:. */
export class CounterStoreUrlError extends HookwiseError {
  override readonly code = 'COUNTER_STORE_URL';
}

/** The Redis named for the counters cannot be reached. */
export class CounterConnectionError extends HookwiseError {
  override readonly code = 'COUNTER_CONNECTION';
}
