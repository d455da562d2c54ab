import { HookEngine as CoreEngine, type EngineOptions } from '../core/engine.js';
import { claudeCodeOutputReader } from './claude-code.js';
import { COMPAT_EVENT_NAMES } from './event-aliases.js';
import { ToolInputContext } from './tool-input.js';
import { useHooksOutcomeReader } from './usehooks.js';
// Kept in the declarations too: every entry whose types name this engine gets the
// formats' type augmentations (aliases for typed hooks, the return shapes, ctx.tool_input).
import './claude-code.js';
import './event-aliases.js';
import './tool-input.js';
import './usehooks.js';

/**
 * What an engine is given at the edge so that configs and hooks written for other
 * hook systems run unchanged: their event names, their return shapes (UseHooks'
 * HookOutcome, then Claude Code's JSON output, which takes any other object), and the
 * shadow agent SDK's `ctx.tool_input`. The core knows none of them.
 */
export const COMPAT_ENGINE_OPTIONS: Readonly<Pick<EngineOptions, 'eventNames' | 'resultReaders' | 'contextClass'>> = Object.freeze({
  eventNames: COMPAT_EVENT_NAMES,
  resultReaders: Object.freeze([useHooksOutcomeReader, claudeCodeOutputReader]),
  contextClass: ToolInputContext,
});

/**
 * hookwise's engine as the public entry (`hookwise`) and every loaded config build it:
 * the core engine with COMPAT_ENGINE_OPTIONS. An option given explicitly wins.
 */
export class HookEngine extends CoreEngine {
  constructor(options: EngineOptions = {}) {
    super({ ...COMPAT_ENGINE_OPTIONS, ...options });
  }
}
