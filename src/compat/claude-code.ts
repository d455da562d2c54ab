/**
 * Claude Code's JSON hook protocol (as of Claude Code 2.1.197), in one place:
 * what a hook's JSON output may say and what it means (read), what each event does
 * with a blocking error (exit 2, `decision: "block"`), and how an Outcome is written
 * back as a hook's output (the `hookwise claude-code` drop-in). See docs/claude-code.md.
 * The engine reads a handler's Claude Code output through `claudeCodeOutputReader`,
 * given to it at the edge (./engine.ts); the core knows nothing of this format.
 *
 * Validation is a small table instead of a schema library: this module is on the
 * path of every in-process hook's return value and of every drop-in call.
 */
import type { Outcome } from '../core/outcome.js';
import type { ResultReader } from '../core/results.js';
import { InvalidResultError, type Decision, type Verdict } from '../core/verdict.js';

export const CLAUDE_CODE_VERSION = '2.1.197';

/** Claude Code's JSON hook output, as a command hook prints it on stdout. */
export interface ClaudeCodeJsonOutput {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: 'approve' | 'block';
  reason?: string;
  terminalSequence?: string;
  hookSpecificOutput?: {
    hookEventName: string;
    permissionDecision?: Decision;
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
    updatedMCPToolOutput?: unknown;
    updatedToolOutput?: unknown;
    decision?: {
      behavior: 'allow' | 'deny';
      updatedInput?: Record<string, unknown>;
      updatedPermissions?: unknown[];
      message?: string;
      interrupt?: boolean;
    };
    retry?: boolean;
    action?: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
    worktreePath?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------
// The per-event table of what a blocking error does
// ---------------------------------------------------------------------------

/**
 * What Claude Code does with a blocking error (exit 2, or `decision: "block"`) on
 * each event. `block`: the event's action is refused (or, on Stop-like events, the
 * agent is kept going) with the reason; `ignored`: "blocking errors are ignored",
 * the error is shown to the user and the session goes on (a non-blocking error).
 * Events not listed (custom ones) block.
 */
const BLOCKING_ERROR_IGNORED = new Set([
  'SessionStart',
  'Setup',
  'SubagentStart',
  'SessionEnd',
  'Notification',
  'PostCompact',
  'StopFailure',
  'PermissionDenied',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'WorktreeRemove',
]);

/**
 * Events on which Claude Code reads exit code 2 as "block" (its per-event exit-code
 * table): there hookwise's own failure answers exit 2. On the others exit 2 only
 * shows stderr, so a failure answers exit 1 (a non-blocking error shown to the user).
 */
export const EXIT_2_BLOCKS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'Stop',
  'SubagentStop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'ConfigChange',
  'PreCompact',
  'PostToolBatch',
  'Elicitation',
  'ElicitationResult',
  'WorktreeCreate',
  'PreModelSwitch',
]);

/** Whether a blocking error (exit 2, `decision: "block"`) blocks on this event in Claude Code. */
export function blockingErrorBlocks(event: string): boolean {
  return !BLOCKING_ERROR_IGNORED.has(event);
}

/**
 * Events where Claude Code reads an exit 2 with nothing on stdout and a
 * "No such file" / "can't open" stderr as a missing script (a non-blocking error):
 * blocking there would keep the agent going for ever.
 */
const MISSING_SCRIPT_EVENTS = new Set(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle']);

export function isMissingScript(event: string, stdout: string, stderr: string, plugin = false): boolean {
  const applies = MISSING_SCRIPT_EVENTS.has(event) || (plugin && event === 'UserPromptSubmit');
  return applies && stdout.trim() === '' && /no such file|can't open/i.test(stderr);
}

/** Events on which Claude Code adds a hook's plain stdout (exit 0) to the model's context. */
const PLAIN_STDOUT_IS_CONTEXT = new Set(['SessionStart', 'UserPromptSubmit', 'Setup', 'SubagentStart', 'UserPromptExpansion']);

export function plainStdoutIsContext(event: string): boolean {
  return PLAIN_STDOUT_IS_CONTEXT.has(event);
}

/** Events whose command hooks answer with plain stdout as a value (WorktreeCreate: the path). */
export function plainStdoutIsWorktreePath(event: string): boolean {
  return event === 'WorktreeCreate';
}

// ---------------------------------------------------------------------------
// Reading: validation as Claude Code's schema does it
// ---------------------------------------------------------------------------

type FieldType = 'string' | 'boolean' | 'object' | 'unknown' | 'strings' | 'decision' | 'permission' | 'action';

const TOP_LEVEL: Record<string, FieldType> = {
  continue: 'boolean',
  suppressOutput: 'boolean',
  stopReason: 'string',
  decision: 'decision',
  reason: 'string',
  systemMessage: 'string',
  terminalSequence: 'string',
  hookSpecificOutput: 'object',
};

const ctx = { additionalContext: 'string' } as const;
const watch = { watchPaths: 'strings' } as const;

/** hookSpecificOutput's fields per hookEventName, as Claude Code 2.1.197's schema has them. */
const SPECIFIC: Record<string, Record<string, FieldType>> = {
  PreToolUse: { permissionDecision: 'permission', permissionDecisionReason: 'string', updatedInput: 'object', ...ctx },
  UserPromptSubmit: { ...ctx, sessionTitle: 'string', suppressOriginalPrompt: 'boolean' },
  UserPromptExpansion: ctx,
  SessionStart: { ...ctx, initialUserMessage: 'string', sessionTitle: 'string', ...watch, reloadSkills: 'boolean' },
  Setup: ctx,
  SubagentStart: ctx,
  PostToolUse: { ...ctx, updatedToolOutput: 'unknown', updatedMCPToolOutput: 'unknown' },
  PostToolUseFailure: ctx,
  PostToolBatch: ctx,
  Stop: ctx,
  SubagentStop: ctx,
  PermissionDenied: { retry: 'boolean' },
  Notification: ctx,
  PermissionRequest: { decision: 'object' },
  Elicitation: { action: 'action', content: 'object' },
  ElicitationResult: { action: 'action', content: 'object' },
  CwdChanged: watch,
  FileChanged: watch,
  WorktreeCreate: { worktreePath: 'string' },
  MessageDisplay: { displayContent: 'string' },
};

/** Claude Code events whose output has no hookSpecificOutput: naming one there is an error. */
const NO_SPECIFIC_OUTPUT = new Set([
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'StopFailure',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'ConfigChange',
  'InstructionsLoaded',
  'WorktreeRemove',
]);

/** hookwise's own and custom events (PreModelCall, StepStart, ...) may add context. */
const OTHER_EVENTS: Record<string, FieldType> = { additionalContext: 'string' };

/** Fields an output must have for its hookEventName. */
const REQUIRED: Record<string, string[]> = { PermissionRequest: ['decision'], WorktreeCreate: ['worktreePath'] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isObject(value);
    case 'strings':
      return Array.isArray(value) && value.every((s) => typeof s === 'string');
    case 'decision':
      return value === 'approve' || value === 'block';
    case 'permission':
      return value === 'allow' || value === 'deny' || value === 'ask' || value === 'defer';
    case 'action':
      return value === 'accept' || value === 'decline' || value === 'cancel';
    default:
      return true;
  }
}

const TYPE_WORDS: Record<FieldType, string> = {
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  unknown: 'any value',
  strings: 'an array of strings',
  decision: '"approve" or "block"',
  permission: '"allow", "deny", "ask" or "defer"',
  action: '"accept", "decline" or "cancel"',
};

function fail(message: string): never {
  throw new InvalidResultError(`invalid Claude Code hook output: ${message}`);
}

function checkFields(
  obj: Record<string, unknown>,
  table: Record<string, FieldType>,
  where: string,
  strict: boolean,
  out: Record<string, unknown>,
): void {
  for (const [key, value] of Object.entries(obj)) {
    const type = table[key];
    if (type === undefined) {
      if (strict) fail(`${where}${key} is not a field Claude Code knows (expected one of: ${Object.keys(table).join(', ')})`);
      continue;
    }
    // Claude Code's schema treats an explicit undefined as absent; JSON has none.
    if (value === undefined) continue;
    if (!fits(type, value)) fail(`${where}${key} must be ${TYPE_WORDS[type]}, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
}

function checkPermissionRequestDecision(d: Record<string, unknown>, strict: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.behavior === 'allow')
    checkFields(
      d,
      { behavior: 'string', updatedInput: 'object', updatedPermissions: 'unknown' },
      'hookSpecificOutput.decision.',
      strict,
      out,
    );
  else if (d.behavior === 'deny')
    checkFields(d, { behavior: 'string', message: 'string', interrupt: 'boolean' }, 'hookSpecificOutput.decision.', strict, out);
  else fail(`hookSpecificOutput.decision.behavior must be "allow" or "deny", got ${JSON.stringify(d.behavior)}`);
  return out;
}

/**
 * Validate a hook's JSON output as Claude Code does, and return it with only the
 * fields Claude Code knows. `strict` (hookwise's own hooks) makes an unknown field an
 * error; otherwise (Claude Code settings hooks) unknown fields are dropped, as Claude
 * Code drops them. `event`, when known, must be the hookSpecificOutput's hookEventName.
 * Throws InvalidResultError: a hook failure, which follows the hook's failure policy.
 */
export function validateClaudeCodeOutput(
  value: Record<string, unknown>,
  options: { strict: boolean; event?: string },
): ClaudeCodeJsonOutput {
  const out: Record<string, unknown> = {};
  checkFields(value, TOP_LEVEL, '', options.strict, out);
  const specific = out.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    const name = specific.hookEventName;
    if (name === undefined) fail('hookSpecificOutput is missing required field "hookEventName"');
    const table = typeof name !== 'string' || name === '' || NO_SPECIFIC_OUTPUT.has(name) ? undefined : (SPECIFIC[name] ?? OTHER_EVENTS);
    if (table === undefined) fail(`hookSpecificOutput.hookEventName ${JSON.stringify(name)} is not an event with hook-specific output`);
    if (options.event !== undefined && name !== options.event) {
      fail(`hook returned incorrect event name: expected '${options.event}' but got '${String(name)}'`);
    }
    const cleaned: Record<string, unknown> = { hookEventName: name };
    checkFields(specific, { hookEventName: 'string', ...table }, 'hookSpecificOutput.', options.strict, cleaned);
    for (const field of REQUIRED[name as string] ?? []) {
      if (cleaned[field] === undefined) fail(`hookSpecificOutput.${field} is required for ${String(name)}`);
    }
    if (isObject(cleaned.decision)) cleaned.decision = checkPermissionRequestDecision(cleaned.decision, options.strict);
    out.hookSpecificOutput = cleaned;
  }
  return out as ClaudeCodeJsonOutput;
}

/**
 * A validated output as a Verdict, read as Claude Code 2.1.197 reads it. `event` is the
 * event it answers when known; a blocking answer on an event where Claude Code
 * ignores blocking errors (SessionStart, ...) does not block.
 */
export function verdictFromClaudeCode(o: ClaudeCodeJsonOutput, event?: string): Verdict {
  const v: Verdict = { result: 'none' };
  const specific = o.hookSpecificOutput;
  if (o.systemMessage !== undefined) v.systemMessage = o.systemMessage;
  if (o.suppressOutput === true) v.suppressOutput = true;
  if (specific?.additionalContext !== undefined && specific.additionalContext !== '') v.additionalContext = specific.additionalContext;
  const eventName = event ?? specific?.hookEventName;
  const canBlock = eventName === undefined || blockingErrorBlocks(eventName);

  // Claude Code prefers updatedToolOutput; updatedMCPToolOutput counts when it is the only one.
  if (specific?.updatedToolOutput !== undefined) v.updatedOutput = specific.updatedToolOutput;
  else if (specific?.updatedMCPToolOutput !== undefined && specific.updatedMCPToolOutput !== null)
    v.updatedOutput = specific.updatedMCPToolOutput;

  if (o.decision === 'approve') v.decision = 'allow';
  if (o.decision === 'block' && canBlock) {
    v.block = true;
    v.reason = o.reason ?? 'Blocked by hook';
  }
  const permission = specific?.permissionDecision;
  if (permission !== undefined) {
    v.decision = permission;
    const reason = specific?.permissionDecisionReason ?? o.reason;
    if (permission === 'deny') {
      v.block = true;
      v.reason = reason ?? 'Blocked by hook';
    } else if (reason !== undefined && !v.block) v.reason = reason;
  } else if (v.decision === 'allow' && o.reason !== undefined) v.reason = o.reason;
  if (specific?.updatedInput !== undefined) v.updatedInput = specific.updatedInput as Record<string, unknown>;

  const request = specific?.decision;
  if (request !== undefined) {
    v.decision = request.behavior;
    if (request.behavior === 'allow' && request.updatedInput !== undefined) v.updatedInput = request.updatedInput;
    if (request.behavior === 'deny') {
      v.block = true;
      v.reason = request.message ?? o.reason ?? 'Denied by PermissionRequest hook';
      if (request.interrupt === true) {
        v.stop = true;
        v.stopReason = v.reason;
      }
    }
  }
  if (specific?.retry === true) v.retryDelayMs = 0;
  if (specific?.action !== undefined) {
    v.elicitation = specific.content !== undefined ? { action: specific.action, content: specific.content } : { action: specific.action };
    if (specific.action === 'decline') {
      v.block = true;
      v.reason = o.reason ?? (eventName === 'ElicitationResult' ? 'Elicitation result blocked by hook' : 'Elicitation denied by hook');
    }
  }
  if (specific?.worktreePath !== undefined) v.worktreePath = specific.worktreePath;
  // A block on a permission event is a deny, whatever else the output allowed.
  if (v.block && eventName !== undefined && PERMISSION_EVENTS.has(eventName)) v.decision = 'deny';

  if (o.continue === false) {
    v.stop = true;
    v.stopReason = o.stopReason ?? v.reason ?? 'stopped by hook';
  }
  v.result = primaryKind(v);
  if (v.block || v.stop) v.ends = true;
  return v;
}

const PERMISSION_EVENTS = new Set(['PreToolUse', 'PermissionRequest']);

function primaryKind(v: Verdict): Verdict['result'] {
  if (v.stop) return 'stop';
  if (v.block) return v.decision === 'deny' ? 'deny' : 'block';
  if (v.decision === 'ask' || v.decision === 'defer') return v.decision;
  if (v.updatedInput !== undefined || v.updatedOutput !== undefined) return 'modify';
  if (v.decision === 'allow') return 'allow';
  if (v.additionalContext !== undefined) return 'context';
  return 'none';
}

/**
 * A handler's return value as Claude Code JSON output: strictly validated (a field
 * Claude Code does not know is an error, docs/model.md "Results"), read as Claude Code
 * reads it. It takes every object it is asked about, so it is the last reader.
 */
export const claudeCodeOutputReader: ResultReader = {
  shape: 'a Claude Code JSON output object',
  read: (value) => verdictFromClaudeCode(validateClaudeCodeOutput(value, { strict: true })),
};

declare module '../core/spec.js' {
  interface ResultShapes {
    /** Claude Code's JSON hook output, read by claudeCodeOutputReader. */
    claudeCode: ClaudeCodeJsonOutput;
  }
}

// ---------------------------------------------------------------------------
// Reading stdout
// ---------------------------------------------------------------------------

export type StdoutReading = { type: 'empty' } | { type: 'json'; value: Record<string, unknown> } | { type: 'text'; text: string };

/**
 * Claude Code's reading of a hook's stdout (or an HTTP or MCP tool hook's body): JSON
 * when, trimmed, it starts with `{` and parses as an object; anything else is plain
 * text (Claude Code reads an unparseable `{...` as text too).
 */
export function readClaudeCodeStdout(stdout: string): StdoutReading {
  const text = stdout.trim();
  if (text === '') return { type: 'empty' };
  if (!text.startsWith('{')) return { type: 'text', text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed)) return { type: 'json', value: parsed };
  } catch {
    // Claude Code: "Failed to parse hook output as JSON", then plain text.
  }
  return { type: 'text', text };
}

// ---------------------------------------------------------------------------
// Writing: an Outcome as the drop-in's output
// ---------------------------------------------------------------------------

/** Events whose hookSpecificOutput accepts additionalContext in Claude Code. */
const CONTEXT_EVENTS = new Set([
  'SessionStart',
  'Setup',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'SubagentStart',
  'Stop',
  'SubagentStop',
  'Notification',
]);

/**
 * Whether a replaced output can stand for a built-in tool's output. Claude Code checks
 * an updatedToolOutput against the tool's output schema and keeps the original output
 * when it does not fit (a string for Bash's `{stdout, stderr, ...}`); hookwise does not
 * carry Claude Code's schemas and checks the shape instead: same kind of value, and
 * every field of the original present with the same type. MCP tools take anything.
 */
export function outputFitsTool(original: unknown, replacement: unknown, toolName: unknown): boolean {
  if (isMcpToolName(toolName) || original === undefined || original === null) return true;
  if (typeof original !== typeof replacement || Array.isArray(original) !== Array.isArray(replacement)) return false;
  if (typeof original !== 'object' || Array.isArray(original)) return true;
  const target = replacement as Record<string, unknown>;
  return Object.entries(original as Record<string, unknown>).every(
    ([key, value]) => value === undefined || value === null || typeof target[key] === typeof value,
  );
}

/** MCP tools are named `mcp__<server>__<tool>`. */
export const isMcpToolName = (name: unknown): boolean => typeof name === 'string' && name.startsWith('mcp__');

/**
 * An Outcome as Claude Code reads a hook's JSON output: PreToolUse decisions in
 * hookSpecificOutput.permissionDecision, PermissionRequest in decision.behavior,
 * other blocks as `decision: "block"`, a stop as `continue: false`, a replaced tool
 * output as `updatedToolOutput` (`updatedMCPToolOutput` for MCP tools). Undefined
 * when there is nothing to say. `toolName` is the input's tool_name.
 */
export function toClaudeCodeOutput(o: Outcome, toolName?: unknown): Record<string, unknown> | undefined {
  const event = o.event;
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  if (o.stop) {
    out.continue = false;
    out.stopReason = o.stopReason ?? o.reason ?? 'stopped by a hookwise hook';
  }
  if (event === 'PreToolUse') {
    if (o.decision) {
      specific.permissionDecision = o.decision;
      if (o.reason) specific.permissionDecisionReason = o.reason;
    }
    if (o.updatedInput && !o.blocked) specific.updatedInput = o.updatedInput;
  } else if (event === 'PermissionRequest') {
    if (o.decision === 'allow') specific.decision = { behavior: 'allow', ...(o.updatedInput && { updatedInput: o.updatedInput }) };
    else if (o.decision === 'deny') specific.decision = { behavior: 'deny', ...(o.reason && { message: o.reason }) };
  } else if ((event === 'Elicitation' || event === 'ElicitationResult') && o.elicitation) {
    specific.action = o.elicitation.action;
    if (o.elicitation.content !== undefined) specific.content = o.elicitation.content;
    if (o.blocked && o.reason) out.reason = o.reason;
  } else if (o.blocked && !o.stop) {
    out.decision = 'block';
    out.reason = o.reason ?? 'blocked by a hookwise hook';
  }
  if (o.additionalContext && CONTEXT_EVENTS.has(event)) specific.additionalContext = o.additionalContext;
  if (event === 'PostToolUse' && o.updatedOutput !== null && o.updatedOutput !== undefined) {
    specific[isMcpToolName(toolName) ? 'updatedMCPToolOutput' : 'updatedToolOutput'] = o.updatedOutput;
  }
  if (event === 'PermissionDenied' && o.retry) specific.retry = true;
  if (event === 'WorktreeCreate' && o.worktreePath) specific.worktreePath = o.worktreePath;
  if (o.systemMessage) out.systemMessage = o.systemMessage;
  if (o.suppressOutput) out.suppressOutput = true;
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: event, ...specific };
  return Object.keys(out).length > 0 ? out : undefined;
}
