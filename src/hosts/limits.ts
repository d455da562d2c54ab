/** What every hook call keeps to, wherever it is answered: a deadline, and a failure reason on one line. */
import { HookwiseError } from '../core/errors.js';

export class TimedOut extends HookwiseError {
  override readonly code = 'TIMED_OUT';
}

/** What `work` resolves to, or a TimedOut rejection once `ms` have passed first. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type Within = <T>(ms: number, what: string, work: Promise<T>) => Promise<T>;

/** The longest failure reason an agent is shown. */
export const MAX_REASON_CHARS = 1000;

/** One line, at most MAX_REASON_CHARS, a cut marked as such. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > MAX_REASON_CHARS ? `${flat.slice(0, MAX_REASON_CHARS)}... [cut: ${flat.length} characters]` : flat;
}
