/**
 * hookwise for LangChain.js (`langchain` 1.x `createAgent`). See docs/adapters.md.
 */
export { hookwiseMiddleware, type HookwiseMiddlewareOptions } from './middleware.js';
export {
  HookwiseStopError,
  HookwiseBlockedError,
  UngovernedToolError,
  MemoryCoverage,
  type CoverageSink,
  type ToolExecution,
  type AdapterOptions,
  type Approver,
  type ApprovalRequest,
} from '../shared/index.js';
/** A shell tool's command in the OS sandbox the shell guard would run it in (docs/adapters.md#sandboxed-shell-tools). */
export { sandboxExec, type SandboxExecOptions, type SandboxExecResult } from '../../sandbox/exec.js';
