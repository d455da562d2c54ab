/**
 * hookwise for the Vercel AI SDK (`ai` 6). See docs/adapters.md.
 */
export { hookTools, type HookToolsOptions } from './tools.js';
export { hookModel, ModelCallBlockedError } from './model.js';
export { hookRun, type HookRunOptions, type Turn } from './run.js';
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
