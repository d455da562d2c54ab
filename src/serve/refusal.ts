import { HookwiseError } from '../core/errors.js';
/** A request serve answers with an error status (and, on a blockable event, a block). */
export class Refusal extends HookwiseError {
  override readonly code = 'REFUSAL';
  constructor(
    readonly status: number,
    message: string,
    readonly event?: string,
    /** More of the answer's JSON beside `error` (the approvals API: who answered first). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}
