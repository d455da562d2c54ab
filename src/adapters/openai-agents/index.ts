/**
 * hookwise for OpenAI Agents JS (`@openai/agents`). See docs/adapters.md.
 */
export { hookAgent, type HookAgentOptions } from './agent.js';
export { hookRun } from './run.js';
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
