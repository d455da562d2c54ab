import type { EventName, InputOf } from './event-inputs.js';
import type { HookInput } from './input.js';
import type { HandlerReturn, HookContext, HookSpec } from './spec.js';

/**
 * Hooks as users write them: `events` names known events (or ones declared in
 * `CustomEvents`), and the handler's input is typed by them, so a misspelt event
 * or input field does not compile. The handler is a method so that a hook typed
 * for some events still fits where a hook for any events is expected.
 */
type HookFor<E extends EventName> = Omit<HookSpec, 'events' | 'handler'> & {
  events: E | readonly E[];
  handler(input: InputOf<E>, ctx: HookContext): HandlerReturn | Promise<HandlerReturn>;
};

/** A hook for one event. */
export type Hook<E extends EventName = EventName> = Omit<HookFor<E>, 'events'> & { events: E };

/** A hook for several events (made with `defineHook`): its input is the union of theirs. */
export type MultiEventHook<E extends EventName = EventName> = Omit<HookFor<E>, 'events'> & { events: readonly E[] };

/**
 * Any one hook. One event is a string, several are an array: that keeps the
 * union discriminated, so an object literal with `events: 'PreToolUse'` gets a
 * PreToolUse input without annotations.
 */
export type AnyHook = { [E in EventName]: Hook<E> }[EventName] | MultiEventHook<EventName> | EveryEventHook;

/** `events: '*'`: every event, known or custom; the input is any event's. */
export type EveryEventHook = Omit<HookFor<EventName>, 'events'> & { events: '*' };

/**
 * Types a hook by its events and returns it with `events` as an array. Needed
 * for a hook listing several events in an object literal, whose input is then
 * the union of theirs (narrow it with `input.hook_event_name === ...`).
 */
export function defineHook<E extends EventName>(hook: HookFor<E>): MultiEventHook<E> {
  return { ...hook, events: typeof hook.events === 'string' ? [hook.events] : hook.events } as MultiEventHook<E>;
}

/**
 * The engine stores hooks untyped: hooks built from settings files or SDK
 * callbacks are checked when registered (event names, matchers), not by the compiler.
 */
export function asHook(spec: HookSpec<HookInput>): AnyHook {
  return spec as unknown as AnyHook;
}
