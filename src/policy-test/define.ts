import type { EventName, HookInput } from '../core/event-inputs.js';
import type { Decision } from '../core/results.js';

/** What must come out of one case's fire. Fields left out are not checked. */
export interface PolicyExpectation {
  /** The merged decision; `null` for no decision (nothing objected, nothing allowed). */
  decision?: Decision | null;
  blocked?: boolean;
  /** The reason, as exact text or as `/pattern/flags`. */
  reason?: string | null;
  /** The rewritten input (`tool_input` on tool events); `null` for "not rewritten". */
  updatedInput?: Record<string, unknown> | null;
  /** The context added for the model, exact text or `/pattern/`; `null` for none. */
  additionalContext?: string | null;
  /** The hook whose answer decided (the first to deny or block, else the first to decide); `null` for none. */
  hook?: string | null;
}

/** One case: an event, the input the host sends (host fields are filled in), what must come out. */
export interface PolicyCase<E extends EventName = EventName> {
  name: string;
  event: E;
  input?: Partial<HookInput<E>> & Record<string, unknown>;
  expect: PolicyExpectation;
}

/** A file of cases; `policy` names the config sources (default: those found in the test file's folder). */
export interface PolicyTestFile {
  policy?: string[];
  cases: Array<{ [E in EventName]: PolicyCase<E> }[EventName]>;
}

/** Typed policy tests for a `*.policy-test.ts` file: `export default definePolicyTest({ cases: [...] })`. */
export function definePolicyTest(file: PolicyTestFile): PolicyTestFile {
  return file;
}
