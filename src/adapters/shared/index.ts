export {
  ToolGate,
  denyText,
  stopText,
  withExtra,
  type AdapterOptions,
  type Approver,
  type ApprovalRequest,
  type Plan,
  type AfterTool,
  type ToolCallInfo,
  type InputValidator,
} from './tool-gate.js';
export { MemoryCoverage, AuditCoverage, type CoverageSink, type ToolExecution } from './coverage.js';
export { HookwiseStopError, UngovernedToolError } from './errors.js';
export { Lifecycle, HookwiseBlockedError, MAX_CONSECUTIVE_STOP_BLOCKS, type StopVerdict } from './lifecycle.js';
