import { evaluateStop } from './continuation.js';
import type { Halt, RunContext } from './run-context.js';
import { processStep } from './step-processor.js';

/**
 * The agent loop: steps until the continuation criterion says stop, a hook halts
 * the run, or maxSteps is reached. Shared by the main agent and subagents.
 */
export async function agentLoop(run: RunContext): Promise<Halt> {
  for (;;) {
    if (run.session.halt) return run.session.halt;
    if (run.stepsTaken >= run.session.maxSteps) {
      const message = `reached maxSteps (${run.session.maxSteps}) before the agent finished`;
      return { stopReason: 'max_steps', reason: message, error: { type: 'max_steps', message } };
    }
    const step = await processStep(run);
    if (step.kind === 'halt') return step.halt;
    if (step.kind === 'tools') continue;
    const next = await evaluateStop(run, step.text);
    if (!next.continue) return { stopReason: next.stopReason, reason: next.reason };
    run.addMessage({ role: 'user', content: next.instruction });
  }
}

/** The loop, plus StopFailure when the agent failed (provider error, max steps, a bug). */
export async function runAgentLoop(run: RunContext): Promise<Halt> {
  let halt: Halt;
  try {
    halt = await agentLoop(run);
  } catch (error) {
    if (run.session.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    halt = { stopReason: 'error', reason: message, error: { type: 'internal', message } };
  }
  if (halt.error) await reportFailure(run, halt.error);
  return halt;
}

export async function reportFailure(run: RunContext, error: { type: string; message: string }): Promise<void> {
  await run.hooks.fire('StopFailure', { error: error.type, error_details: error.message, last_assistant_message: run.lastText });
}
