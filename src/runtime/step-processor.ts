import { checkpointStep, type UnfinishedBatch } from './checkpoint.js';
import { compactIfNeeded } from './compaction.js';
import { blockedBy } from './hook-gateway.js';
import { callModel } from './model-call.js';
import { stopHalt, type Halt, type RunContext } from './run-context.js';
import { applyStateRewrite } from './state-rewrite.js';
import { HookedToolExecutor } from './tool-executor.js';

export type StepResult =
  /** The model called tools; the loop goes on. */
  | { kind: 'tools' }
  /** The model answered without tool calls: the continuation criterion decides. */
  | { kind: 'final'; text: string }
  | { kind: 'halt'; halt: Halt };

/**
 * Everything around one step (one model turn and its tool calls): StepStart,
 * compaction, the model call, the hooked tool batch, StepEnd, the checkpoint.
 * The step's name says what it is doing (`model`, then `tools` or `final`).
 */
export async function processStep(run: RunContext): Promise<StepResult> {
  const index = run.stepIndex;
  run.enterStep(index, 'model');
  // StepStart may rewrite the state the step starts from (the conversation, the metadata).
  const start = await run.hooks.fire('StepStart', { messages: run.messages.slice() });
  if (start.stop) return { kind: 'halt', halt: stopHalt(start) };
  if (start.blocked) return { kind: 'halt', halt: { stopReason: 'hook_blocked', reason: `step not run: StepStart ${blockedBy(start)}` } };
  const invalid = applyStateRewrite(run, start, ['messages', 'metadata']);
  if (invalid) return { kind: 'halt', halt: { stopReason: 'hook_blocked', reason: `step not run: ${invalid}` } };
  run.session.observer.emit({ type: 'step_start', step: index, ...run.tag });

  const t0 = performance.now();
  const result = await performStep(run);
  run.stepsTaken++;
  return endStep(run, index, t0, result);
}

/**
 * A resumed run whose checkpoint was written inside a step (a call was waiting for
 * an approval): run the calls that have no result yet, then end that step as
 * processStep does. StepStart and the model call happened before; the step does not
 * count against this run's maxSteps (it made no model call here).
 */
export async function finishStep(run: RunContext, batch: UnfinishedBatch): Promise<StepResult> {
  const index = run.stepIndex;
  run.enterStep(index, 'tools');
  run.session.observer.emit({ type: 'step_start', step: index, ...run.tag });
  const t0 = performance.now();
  const done = await new HookedToolExecutor(run).executeBatch(batch.calls, batch.done);
  for (const message of done.messages) run.addMessage(message);
  return endStep(run, index, t0, done.halt ? { kind: 'halt', halt: done.halt } : { kind: 'tools' });
}

async function endStep(run: RunContext, index: number, t0: number, result: StepResult): Promise<StepResult> {
  run.stepIndex++;
  await run.hooks.fire('StepEnd', {
    status: result.kind === 'halt' ? (result.halt.stopReason === 'error' ? 'failed' : 'halted') : 'completed',
    final: result.kind === 'final',
    duration_ms: Math.round(performance.now() - t0),
  });
  run.session.observer.emit({ type: 'step_end', step: index, ...run.tag });
  await checkpointStep(run);
  return result;
}

async function performStep(run: RunContext): Promise<StepResult> {
  const compactionHalt = await compactIfNeeded(run);
  if (compactionHalt) return { kind: 'halt', halt: compactionHalt };

  run.deliverPendingContext();
  const model = await callModel(run);
  if (!model.ok) return { kind: 'halt', halt: model.halt };
  const { text, toolCalls } = model.response;
  run.addMessage(toolCalls.length ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text });
  if (text) {
    run.lastText = text;
    run.session.observer.emit({ type: 'text', text, ...run.tag });
  }
  run.enterStep(run.stepIndex, toolCalls.length === 0 ? 'final' : 'tools');
  if (toolCalls.length === 0) return { kind: 'final', text };

  const batch = await new HookedToolExecutor(run).executeBatch(toolCalls);
  for (const message of batch.messages) run.addMessage(message);
  return batch.halt ? { kind: 'halt', halt: batch.halt } : { kind: 'tools' };
}
