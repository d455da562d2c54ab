import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditRecord } from '../audit/types.js';
import type { HookEngine } from '../core/engine.js';
import type { HookInput } from '../core/input.js';
import type { Outcome } from '../core/outcome.js';
import { unfinishedBatch, type CheckpointData } from './checkpoint.js';
import { blockedBy } from './hook-gateway.js';
import { reportFailure, runAgentLoop } from './loop.js';
import type { Observer } from './observer.js';
import { RunContext, type Halt, type SessionScope, stopHalt } from './run-context.js';
import { finishStep } from './step-processor.js';
import { spawnSubagent } from './subagent.js';
import { Transcript } from './transcript.js';
import type { AgentOptions, RunResult } from './types.js';
import { RuntimeOptionError } from './errors.js';

export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_MAX_OPERATION_RETRIES = 3;
export const DEFAULT_TRANSCRIPT_DIR = path.join(tmpdir(), 'hookwise', 'transcripts');

export interface SessionStartRequest {
  prompt?: string;
  checkpoint?: CheckpointData;
}

/**
 * One session from SessionStart to SessionEnd: prompt, loop, result. Never
 * throws for a failure of the agent (that is an error result); rethrows only
 * when the caller aborted.
 */
export async function runSession(
  options: AgentOptions,
  engine: HookEngine,
  observer: Observer,
  request: SessionStartRequest,
): Promise<RunResult> {
  const scope = sessionScope(options, engine, observer, request.checkpoint);
  const run = new RunContext(
    scope,
    { agentType: options.agentType },
    options.tools ?? [],
    new Transcript(scope.transcriptPath, scope.sessionId),
  );
  const unsubscribe = watchEngine(engine, scope);
  observer.emit({ type: 'session_start', sessionId: scope.sessionId, transcriptPath: scope.transcriptPath });
  const checkpoint = request.checkpoint;
  if (checkpoint) {
    run.messages = [...checkpoint.messages];
    run.stepIndex = checkpoint.step;
    run.stopBlocks = checkpoint.stop_hook_blocks;
    run.lastText = [...checkpoint.messages].reverse().find((m) => m.role === 'assistant' && m.content)?.content ?? '';
  } else if (options.systemPrompt) {
    run.addMessage({ role: 'system', content: options.systemPrompt });
  }

  let halt: Halt | undefined;
  try {
    halt = await startSession(run, checkpoint ? 'resume' : 'startup');
    // A checkpoint written while a call waited for an approval: the model gets every result of that turn first.
    const unfinished = checkpoint ? unfinishedBatch(checkpoint) : null;
    if (!halt && unfinished) {
      const step = await finishStep(run, unfinished);
      if (step.kind === 'halt') halt = step.halt;
    }
    if (!halt && request.prompt !== undefined) halt = await submitPrompt(run, request.prompt);
    if (!halt) halt = await runAgentLoop(run);
  } catch (error) {
    if (scope.signal.aborted) {
      // The caller aborted: still end the session (drains async hooks), then rethrow.
      await run.hooks.fireAfterAbort('SessionEnd', { reason: 'aborted', stop_reason: 'aborted', ...sessionTotals(run) });
      await options.audit?.flush();
      unsubscribe();
      run.transcript.close();
      throw error;
    }
    // A failure outside the loop (a transcript that cannot be written, ...) is still a result, not a throw.
    const message = error instanceof Error ? error.message : String(error);
    halt = { stopReason: 'error', reason: message, error: { type: 'internal', message } };
    await reportFailure(run, halt.error!).catch(() => {});
  }
  try {
    const result = resultOf(run, halt);
    run.transcript.append({ type: 'result', stop_reason: result.stopReason, reason: result.reason, steps: result.steps });
    await run.hooks.fire('SessionEnd', { reason: 'other', stop_reason: result.stopReason, ...sessionTotals(run) });
    await options.audit?.flush();
    observer.emit({ type: 'session_end', result });
    return result;
  } finally {
    unsubscribe();
    run.transcript.close();
  }
}

function sessionScope(options: AgentOptions, engine: HookEngine, observer: Observer, checkpoint?: CheckpointData): SessionScope {
  if (!options.provider || typeof options.provider.complete !== 'function') {
    throw new RuntimeOptionError('createAgent: `provider` must be a ModelProvider (an object with complete(request))');
  }
  const sessionId = checkpoint?.session_id ?? options.sessionId ?? randomUUID();
  const cwd = path.resolve(options.cwd ?? checkpoint?.cwd ?? process.cwd());
  const transcriptDir = path.resolve(options.transcriptDir ?? DEFAULT_TRANSCRIPT_DIR);
  const checkpointDir = options.checkpointDir === false ? null : path.resolve(options.checkpointDir ?? transcriptDir);
  return {
    sessionId,
    cwd,
    transcriptPath: checkpoint?.transcript_path ?? path.join(transcriptDir, `${sessionId}.jsonl`),
    checkpointPath: checkpointDir === null ? null : path.join(checkpointDir, `${sessionId}.checkpoint.json`),
    engine,
    provider: options.provider,
    observer,
    audit: options.audit,
    signal: options.signal ?? new AbortController().signal,
    options,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    maxOperationRetries: options.maxOperationRetries ?? DEFAULT_MAX_OPERATION_RETRIES,
    usage: checkpoint ? { ...checkpoint.usage } : { inputTokens: 0, outputTokens: 0 },
    subagents: checkpoint?.subagents ?? 0,
    halt: null,
    promptId: null,
    permissionMode: options.permissionMode ?? 'default',
    effort: options.effort,
    metadata: options.metadata === undefined ? undefined : Object.freeze({ ...options.metadata }),
    // Claude Code also tells hooks the effort through CLAUDE_EFFORT.
    env: Object.freeze({ ...process.env, ...(options.effort === undefined ? {} : { CLAUDE_EFFORT: options.effort }), ...options.env }),
    projectDir: path.resolve(options.projectDir ?? cwd),
    startedAt: performance.now(),
    toolCalls: 0,
    spawnSubagent,
  };
}

/** Audit every outcome of this session, and pass hook start/end to observers (for spinners). */
function watchEngine(engine: HookEngine, scope: SessionScope): () => void {
  const offs: Array<() => void> = [];
  const audit = scope.audit;
  if (audit) {
    offs.push(
      engine.on('outcome', (outcome, meta) => {
        // The call as the agent asked for it; a rewrite is the Outcome's updatedInput beside it.
        if (meta.sessionId === scope.sessionId) audit.append(auditRecord(outcome, meta.received, scope.sessionId));
      }),
    );
  }
  offs.push(
    engine.on('hookStart', (info) => {
      if (info.sessionId !== scope.sessionId) return;
      scope.observer.emit({
        type: 'hook_start',
        event: info.event,
        hook: info.name,
        ...(info.statusMessage ? { statusMessage: info.statusMessage } : {}),
      });
    }),
    engine.on('hookEnd', (info) => {
      if (info.sessionId === scope.sessionId)
        scope.observer.emit({ type: 'hook_end', event: info.event, hook: info.name, record: info.record });
    }),
  );
  return () => offs.forEach((off) => off());
}

function auditRecord(outcome: Outcome, input: HookInput, sessionId: string): AuditRecord {
  const record: AuditRecord = {
    kind: 'outcome',
    ts: new Date().toISOString(),
    sessionId,
    event: outcome.event,
    decision: outcome.decision,
    data: { ...outcome, input: auditedInput(input) },
  };
  if (typeof input.tool_name === 'string') record.tool = input.tool_name;
  return record;
}

/** The parts of an input that say what the outcome was about, without whole responses or transcripts. */
function auditedInput(input: HookInput): Record<string, unknown> {
  const keep = [
    'tool_name',
    'tool_input',
    'tool_use_id',
    'agent_id',
    'agent_type',
    'step',
    'prompt',
    'error',
    'trigger',
    'source',
    'notification_type',
  ];
  const out: Record<string, unknown> = {};
  for (const key of keep) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

async function startSession(run: RunContext, source: 'startup' | 'resume'): Promise<Halt | undefined> {
  const provider = run.session.provider;
  const fields: Record<string, unknown> = { source, model: provider.model, model_provider: provider.name, model_name: provider.model };
  if (run.session.options.systemPrompt !== undefined) fields.system_prompt = run.session.options.systemPrompt;
  if (run.identity.agentType) fields.agent_type = run.identity.agentType;
  const outcome = await run.hooks.fire('SessionStart', fields);
  if (outcome.stop) return stopHalt(outcome);
  if (outcome.blocked) return { stopReason: 'session_refused', reason: `session refused: SessionStart ${blockedBy(outcome)}` };
  if (outcome.additionalContext) run.addMessage({ role: 'system', content: outcome.additionalContext });
  return undefined;
}

async function submitPrompt(run: RunContext, prompt: string): Promise<Halt | undefined> {
  run.session.promptId = randomUUID();
  const outcome = await run.hooks.fire('UserPromptSubmit', { prompt });
  if (outcome.stop) return stopHalt(outcome);
  if (outcome.blocked) return { stopReason: 'prompt_rejected', reason: `prompt rejected: UserPromptSubmit ${blockedBy(outcome)}` };
  const rewritten = outcome.updatedInput?.prompt;
  const text = typeof rewritten === 'string' ? rewritten : prompt;
  run.addMessage({ role: 'user', content: outcome.additionalContext ? `${text}\n\n${outcome.additionalContext}` : text });
  return undefined;
}

/** SessionEnd's totals (the fields of the A3S HookEngine design, beside Claude Code's). */
function sessionTotals(run: RunContext): Record<string, unknown> {
  const s = run.session;
  return {
    total_tokens: s.usage.inputTokens + s.usage.outputTokens,
    total_tool_calls: s.toolCalls,
    duration_ms: Math.round(performance.now() - s.startedAt),
  };
}

function resultOf(run: RunContext, halt: Halt): RunResult {
  const s = run.session;
  return {
    text: run.lastText,
    stopReason: halt.stopReason,
    reason: halt.reason,
    error: halt.error ?? null,
    steps: run.stepsTaken,
    usage: { ...s.usage },
    sessionId: s.sessionId,
    transcriptPath: s.transcriptPath,
    checkpointPath: s.checkpointPath,
    messages: run.messages,
  };
}
