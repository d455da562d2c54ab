export {
  ToolGate,
  denyText,
  stopText,
  withExtra,
  MemoryCoverage,
  AuditCoverage,
  type CoverageSink,
  type ToolExecution,
  type AdapterOptions,
  type Approver,
  type ApprovalRequest,
  type Plan,
  type AfterTool,
  type ToolCallInfo,
  type InputValidator,
} from '../../gate/index.js';
export { HookwiseStopError, UngovernedToolError } from './errors.js';
export { Lifecycle, HookwiseBlockedError, MAX_CONSECUTIVE_STOP_BLOCKS, type StopVerdict } from './lifecycle.js';
