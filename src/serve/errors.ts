import { HookwiseError } from '../core/errors.js';

/** The server's approvals feed was closed (the server is shutting down); a watcher can no longer join. */
export class ApprovalsFeedClosedError extends HookwiseError {
  override readonly code = 'APPROVALS_FEED_CLOSED';
}
