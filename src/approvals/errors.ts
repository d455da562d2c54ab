import { HookwiseError } from '../core/errors.js';
/**
 * A decision was written but its `approval` record could not be appended to the
 * audit chain (the audit store is locked, read-only or unreachable). The decision
 * stands; the record is appended by the next reconcile (any store opened on the
 * same database, and every `list`).
 */
export class ApprovalChainError extends HookwiseError {
  override readonly code = 'APPROVAL_CHAIN';
  constructor(
    readonly approvalId: string,
    /** `withdrawn`: a new request, taken back since the trail does not hold it; `behind`: a stored step, appended later. */
    outcome: 'withdrawn' | 'behind',
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      outcome === 'withdrawn'
        ? `approval ${approvalId}: the request could not be recorded in the audit trail, so it was withdrawn: ${why}`
        : `approval ${approvalId}: the decision is stored, but its audit record could not be appended yet (it will be when an approvals store is next opened or listed): ${why}`,
      { cause },
    );
  }
}

/** `wait` was given an id the store does not hold. */
export class ApprovalNotFoundError extends HookwiseError {
  override readonly code = 'APPROVAL_NOT_FOUND';
  constructor(readonly approvalId: string) {
    super(`no approval ${JSON.stringify(approvalId)} (see \`hookwise approvals list --all\`)`);
  }
}

/** The approvals store could not take the request now (the database is locked by another process, a key taken and released repeatedly): try again. */
export class ApprovalsBusyError extends HookwiseError {
  override readonly code = 'APPROVALS_BUSY';
}

/** A call to an approvals store after `close()`: open the store again. */
export class ApprovalsClosedError extends HookwiseError {
  override readonly code = 'APPROVALS_CLOSED';
}

/** Options of an approvals store that do not fit together or are out of range (an audit store of the other kind, another path or schema, `reconcileAfterMs`): the message names them. */
export class ApprovalStoreOptionError extends HookwiseError {
  override readonly code = 'APPROVALS_STORE_OPTION';
}
