import { RE2JS } from './lazy-deps.js';
import { HookwiseError } from './errors.js';

/**
 * Regular expressions from configuration run on RE2 (linear time), so a pattern
 * in a config file cannot hang the agent the way a backtracking RegExp can.
 */
export interface SafeRegex {
  source: string;
  test(text: string): boolean;
}

export class MatcherError extends HookwiseError {
  override readonly code = 'MATCHER';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

const FLAG_NAMES: Record<string, 'CASE_INSENSITIVE' | 'DOTALL' | 'MULTILINE'> = {
  i: 'CASE_INSENSITIVE',
  s: 'DOTALL',
  m: 'MULTILINE',
};

/** Compile a pattern; an invalid one is a MatcherError naming the pattern and why. */
export function compileRegex(source: string, flags = ''): SafeRegex {
  let bits = 0;
  for (const f of flags) {
    if (f === 'g' || f === 'u' || f === 'y' || f === 'd') continue; // meaningless for a test
    const name = FLAG_NAMES[f];
    if (name === undefined) throw new MatcherError(`invalid regex flag "${f}" in /${source}/${flags}`);
    bits |= RE2JS()[name];
  }
  let re: ReturnType<ReturnType<typeof RE2JS>['compile']>;
  try {
    re = RE2JS().compile(source, bits);
  } catch (error) {
    throw new MatcherError(`invalid regex "${source}": ${(error as Error).message}`);
  }
  return { source, test: (text) => re.test(text) };
}

/** A `/body/flags` string as a delimited regex, or undefined when it is not written that way. */
export function parseDelimitedRegex(text: string): { body: string; flags: string } | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(text);
  return m ? { body: m[1]!, flags: m[2]! } : undefined;
}

/** Escape text so it matches itself literally. */
export function escapeRegex(text: string): string {
  return RE2JS().quote(text);
}
