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
