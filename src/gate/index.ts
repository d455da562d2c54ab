export { ToolGate } from './tool-gate.js';
export type { AdapterOptions, GateOptions, GateHost, Approver, ApprovalRequest, AnsweredBy } from './options.js';
export type { Plan, AfterTool, ToolCallInfo, InputValidator, Checked } from './plan.js';
export { decidingHook, denyText, stopText, withExtra } from './texts.js';
export { MemoryCoverage, AuditCoverage, type CoverageSink, type ToolExecution } from './coverage.js';
export { ruleOnStop, MAX_CONSECUTIVE_STOP_BLOCKS, type StopRuling } from './stop-rule.js';
