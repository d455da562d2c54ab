export type { AuditRecord, AuditSink } from './types.js';
export { AuditStore, type AuditStoreOptions } from './store.js';
export { openAuditStore, type AnyAuditStore, type OpenAuditStoreOptions } from './open.js';
export type { PostgresAuditStore, PostgresAuditStoreOptions } from './postgres-store.js';
export { isPostgresUrl } from './postgres-url.js';
export { installShutdownFlush, type ShutdownFlushOptions } from './shutdown.js';
export { verifyAudit, type AuditProblem, type AuditProblemKind, type AuditVerifyOptions, type AuditVerifyResult } from './verify.js';
export { queryAudit, iterateAudit, exportAuditJsonl, countAudit, type AuditFilters, type AuditRow } from './query.js';
export { verifyAuditTrail, queryAuditTrail, exportAuditTrail, auditCoverage } from './trail.js';
export { coverageOf, type AuditCoverage, type UncoveredExecution } from './coverage.js';
export { toolExecutionRecord, type ToolExecution } from './tool-execution.js';
export { auditEngine, type AuditEngineOptions } from './engine.js';
export { defaultAuditPath, AUDIT_DB_ENV } from './paths.js';
export {
  AUDIT_KEY_ENV,
  AUDIT_KEY_FILE_ENV,
  AuditKeyError,
  anchorPathOf,
  defaultKeyFileOf,
  headMac,
  type AuditKeyOptions,
  type Head,
} from './anchor.js';
export { canonicalJson } from './canonical-json.js';
export { GENESIS_HASH, rowCanonicalForm, rowHash, type ChainedFields } from './chain.js';
export {
  AuditDatabaseMissingError,
  AuditDatabaseFormatError,
  AuditDatabaseLockedError,
  AuditDatabaseReadOnlyError,
  AuditRecordError,
  AuditRollbackError,
} from './errors.js';
export { formatAuditTable, type TableColours } from './table.js';
export { describeRow } from './verify.js';
