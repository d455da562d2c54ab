/**
 * What each known program does with its arguments. Unknown programs get only
 * the generic checks (secret files in arguments, --output files); the shell
 * syntax around them (redirections, substitutions) is judged separately.
 */
import { parseOptions } from '../args.js';
import type { Handler, Invocation } from '../types.js';

export const COMMANDS = new Map<string, Handler>();

export const def = (names: string[], handler: Handler): void => names.forEach((n) => COMMANDS.set(n, handler));

export const operandsOf = (inv: Invocation, short = '', long: string[] = []) => parseOptions(inv.args, { short, long });
