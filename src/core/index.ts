/**
 * The public API of the core: the engine, results, matchers, events and the
 * types a handler sees. Internals (the verdict and outcome builders, matcher
 * compilation) are imported by path inside hookwise and are not promised to users.
 */
export { HookEngine, type FireOptions, type EngineOptions, type OutcomeEvent, type HookStartEvent, type HookEndEvent } from './engine.js';
export {
  allow,
  deny,
  ask,
  defer,
  block,
  stop,
  retry,
  skip,
  modify,
  context,
  systemMessage,
  replaceOutput,
  isHookResult,
  InvalidResultError,
  type Decision,
  type ResultKind,
  type ResultExtras,
  type HookResult,
  type ResultReader,
} from './results.js';
export {
  all,
  any,
  not,
  MatcherResultError,
  type Matcher,
  type StructuredMatcher,
  type MatcherFunction,
  type AllOf,
  type AnyOf,
  type NotOf,
} from './matchers.js';
// canonicalEvent, isKnownEvent and knownEventNames, which know the aliases too, come from the compat layer (src/index.ts).
export { EVENTS, CORE_EVENTS, eventInfo, EventNameError, type EventInfo } from './events.js';
export type { Outcome, HookRecord, HookStatus } from './outcome.js';
export {
  DEFAULT_TIMEOUT_MS,
  type HookSpec,
  type HookContext,
  type PolicyFile,
  type HookHandler,
  type HandlerReturn,
  type ResultShapes,
  type HookLogger,
  type OnError,
} from './spec.js';
export { defineHook, asHook, type Hook, type MultiEventHook, type AnyHook, type EveryEventHook } from './hook.js';
export type * from './event-inputs.js';
export type { HookInput as RawHookInput } from './input.js';
export type { SessionState } from './state.js';
export { HookwiseError } from './errors.js';
export { MissingPackageError } from './missing-package.js';
export { HookSpecError } from './registry.js';
export { MatcherError } from './regex.js';
export { InputError } from './input.js';
