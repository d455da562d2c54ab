import { SESSION_VARIABLES, sessionOf } from './address.cjs';

/**
 * Claude Code's variables of one session (SESSION_VARIABLES) in the resident's
 * process.env, where hooks and command hooks read them: one session's values at a time.
 * A call of another session while calls of one run is declined (its caller answers in its
 * own process); once they are done, the next call's values replace them.
 *
 * Limit: work a hook leaves running after its call (an async hook) reads the values of
 * whichever session's call came last.
 */
export class SessionEnv {
  private current: string;
  private running = 0;

  constructor() {
    this.current = keyOf(sessionOf(process.env));
  }

  /** Take `values` for a call; false when another session's call is running. */
  enter(values: Readonly<Record<string, string>>): boolean {
    const key = keyOf(values);
    if (key !== this.current) {
      if (this.running > 0) return false;
      for (const name of SESSION_VARIABLES) {
        if (values[name] === undefined) delete process.env[name];
        else process.env[name] = values[name];
      }
      this.current = key;
    }
    this.running++;
    return true;
  }

  leave(): void {
    this.running--;
  }
}

/** A request's session values: an object of SESSION_VARIABLES' names and string values, or undefined. */
export function sessionValues(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.some(([name, v]) => !SESSION_VARIABLES.includes(name) || typeof v !== 'string')) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}

const keyOf = (values: Readonly<Record<string, string>>): string => JSON.stringify(SESSION_VARIABLES.map((name) => values[name] ?? null));
