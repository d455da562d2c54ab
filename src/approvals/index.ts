export type {
  AnswerResult,
  Approval,
  ApprovalAnswer,
  ApprovalFilter,
  ApprovalRequest,
  ApprovalScope,
  ApprovalState,
  ApprovalStore,
  ApprovalWaitOptions,
} from './types.js';
export { openApprovals, type AnyApprovalStore, type OpenApprovalsOptions } from './open.js';
export { ChainedApprovalStore, type ApprovalStoreOptions } from './chained-store.js';
export { SqliteApprovalStore, type SqliteApprovalStoreOptions } from './sqlite-store.js';
export type { PostgresApprovalStore, PostgresApprovalStoreOptions } from './postgres-store.js';
export {
  approvalPolicySchema,
  checkAnswer,
  parseApprovalPolicy,
  policyOf,
  requestDefaults,
  ApprovalPolicyError,
  type AnswerCheck,
  type ApprovalApprover,
  type ApprovalPolicy,
  type ApprovalPolicySource,
} from './policy.js';
export { loadApprovalPolicyFile } from './policy-file.js';
export { decisionOf, DEFAULT_EXPIRES_IN_MS, DEFAULT_TENANT, EXPIRY } from '../audit/approval-record.js';
export { ApprovalChainError, ApprovalNotFoundError } from './errors.js';
export { formatApprovalTable, describeApproval } from './format.js';
export { askApproval, verdictOf, type ApprovalAsk, type ApprovalAskSteps, type ApprovalVerdict } from './ask.js';
