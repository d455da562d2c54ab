import { HookwiseError } from '../core/errors.js';

/** A checkpoint could not be taken, read or restored; `code` says which way (docs/api.md, "Errors"). */
export class CheckpointError extends HookwiseError {
  override readonly code: string;
  constructor(message: string, code = 'CHECKPOINT') {
    super(message);
    this.code = code;
  }
}
