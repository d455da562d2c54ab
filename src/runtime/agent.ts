import { hooksOf, type HookwiseConfig } from '../config/define.js';
import { HookEngine as ConfigEngine } from '../compat/engine.js';
import { HookEngine } from '../core/engine.js';
import { asHook } from '../core/hook.js';
import { loadCheckpoint } from './checkpoint.js';
import { Observer } from './observer.js';
import { runSession } from './session.js';
import type { AgentOptions, RunResult, RuntimeEvent } from './types.js';
import { RuntimeOptionError } from './errors.js';

/**
 * An agent: a model provider, tools and hooks. `run(prompt)` is one session;
 * `resume(checkpointFile)` continues one. Observe with `on('event', fn)` or `onEvent`.
 */
export class Agent {
  readonly engine: HookEngine;
  private readonly observer = new Observer();

  constructor(readonly options: AgentOptions) {
    this.engine = engineOf(options.hooks);
    if (options.onEvent) this.observer.add(options.onEvent);
  }

  /** Subscribe to the live timeline; returns the function that unsubscribes. */
  on(type: 'event', listener: (event: RuntimeEvent) => void): () => void {
    if (type !== 'event') throw new RuntimeOptionError(`Agent.on: unknown type "${String(type)}"; expected "event"`);
    return this.observer.add(listener);
  }

  run(prompt: string): Promise<RunResult> {
    if (typeof prompt !== 'string') return Promise.reject(new RuntimeOptionError('Agent.run: prompt must be a string'));
    return runSession(this.options, this.engine, this.observer, { prompt });
  }

  /** Continue the session saved in a checkpoint file; with a prompt, submit it first. */
  async resume(checkpointFile: string, prompt?: string): Promise<RunResult> {
    const checkpoint = loadCheckpoint(checkpointFile);
    return runSession(this.options, this.engine, this.observer, { checkpoint, prompt });
  }
}

export function createAgent(options: AgentOptions): Agent {
  return new Agent(options);
}

function engineOf(hooks: AgentOptions['hooks']): HookEngine {
  if (hooks instanceof HookEngine) return hooks;
  // An engine built here reads hooks as a loaded config's engine does (src/compat).
  if (hooks === undefined) return new ConfigEngine();
  const config: HookwiseConfig = Array.isArray(hooks) ? { hooks } : hooks;
  if (!config || !Array.isArray(config.hooks)) {
    throw new RuntimeOptionError('createAgent: `hooks` must be a HookEngine, an array of hooks, or a config ({ hooks: [...] })');
  }
  const engine = new ConfigEngine({ parallel: config.parallel === true });
  for (const spec of hooksOf(config)) engine.register(asHook(spec));
  return engine;
}
