import { run, type Agent, type RunResult } from '@openai/agents';
import type { HookEngine } from '../../core/engine.js';
import { stopInside } from '../shared/errors.js';
import { Lifecycle } from '../shared/lifecycle.js';
import { ToolGate, type AdapterOptions } from '../../gate/index.js';
import { gateOf } from './agent.js';

/**
 * SessionStart, UserPromptSubmit, Stop ("keep going" reruns with the reason) and
 * SessionEnd around `run(agent, prompt)`, each awaited. Pass an agent from hookAgent
 * to put its tool events in the same session.
 */
export async function hookRun(
  engine: HookEngine,
  agent: Agent<any, any>,
  prompt: string,
  options: AdapterOptions = {},
): Promise<RunResult<any, any>> {
  const gate = gateOf.get(agent) ?? new ToolGate(engine, 'openai-agents', options);
  const lifecycle = new Lifecycle(gate);
  let reason = 'other';
  try {
    const context = await lifecycle.start();
    const input = await lifecycle.prompt(prompt, context);
    let result = await run(agent, input);
    for (;;) {
      if (result.interruptions && result.interruptions.length > 0) return result;
      const verdict = await lifecycle.stop(String(result.finalOutput ?? ''));
      if (!verdict.continue) return result;
      result = await run(agent, [...result.history, { role: 'user', content: verdict.instruction }]);
    }
  } catch (error) {
    // The SDK wraps what a tool throws; a stop leaves hookRun as the stop itself.
    const stop = stopInside(error);
    reason = stop ? 'hook_stop' : 'error';
    throw stop ?? error;
  } finally {
    await lifecycle.end(reason);
  }
}
