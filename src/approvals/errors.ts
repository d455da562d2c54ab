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
    this.name = 'ApprovalChainError';
  }
}

/** `wait` was given an id the store does not hold. */
export class ApprovalNotFoundError extends HookwiseError {
  override readonly code = 'APPROVAL_NOT_FOUND';
  constructor(readonly approvalId: string) {
    super(`no approval ${JSON.stringify(approvalId)} (see \`hookwise approvals list --all\`)`);
    this.name = 'ApprovalNotFoundError';
  }
}
