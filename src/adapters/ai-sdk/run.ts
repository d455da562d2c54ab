import type { HookEngine } from '../../core/engine.js';
import { Lifecycle } from '../shared/lifecycle.js';
import { ToolGate, type AdapterOptions } from '../../gate/index.js';

export interface Turn {
  /** What to send: the user's prompt (rewritten and with context hooks added), or a Stop hook's instruction. */
  prompt: string;
  /** 0 for the user's prompt, then 1, 2, ... each time a Stop hook said "keep going". */
  continuation: number;
}

export interface HookRunOptions extends AdapterOptions {
  prompt: string;
}

/**
 * SessionStart, UserPromptSubmit, Stop and SessionEnd around your own
 * `generateText` / `streamText` calls. `turn` runs once with the prompt, then again
 * with the reason each time a Stop hook blocks ("keep going"); it returns something
 * with the final `text` (a generateText result, or `{ text: await stream.text }`).
 * SessionEnd fires however the run ends. Use the same `sessionId` in hookTools and
 * hookModel to put their events in this session.
 */
export async function hookRun<R extends { text: string | PromiseLike<string> }>(
  engine: HookEngine,
  options: HookRunOptions,
  turn: (turn: Turn) => Promise<R>,
): Promise<R> {
  const lifecycle = new Lifecycle(new ToolGate(engine, 'ai-sdk', options));
  let reason = 'other';
  try {
    const context = await lifecycle.start();
    let prompt = await lifecycle.prompt(options.prompt, context);
    for (let continuation = 0; ; continuation++) {
      const result = await turn({ prompt, continuation });
      const verdict = await lifecycle.stop(await result.text);
      if (!verdict.continue) return result;
      prompt = verdict.instruction;
    }
  } catch (error) {
    reason = error instanceof Error && error.name === 'HookwiseStopError' ? 'hook_stop' : 'error';
    throw error;
  } finally {
    await lifecycle.end(reason);
  }
}
