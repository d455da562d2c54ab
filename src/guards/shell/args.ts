import path from 'node:path';
import type { Word } from '../../shell/words.js';
import { expandBraces, hasGlob, unescapePattern } from '../../shell/words.js';

/** One argument after brace expansion: a literal, a glob, or a runtime value. */
export interface Arg {
  /** Source text, for messages. */
  text: string;
  /** The literal (for globs: the pattern without escapes); undefined when dynamic. */
  value: string | undefined;
  /** Pattern with quoted specials escaped (globs only). */
  pattern?: string;
  glob: boolean;
  dynamic: boolean;
  /** The syntax node it came from (process substitutions are inspected). */
  word?: Word;
}

/** Expand the braces of a word into one or more arguments, as bash does first. */
export function argsOf(word: Word): Arg[] {
  if (word.dynamic || word.pattern === undefined) return [{ text: word.text, value: undefined, glob: false, dynamic: true, word }];
  const expanded = expandBraces(word.pattern) ?? [word.pattern];
  return expanded.map((pattern) => {
    const glob = hasGlob(pattern);
    const arg: Arg = {
      text: expanded.length > 1 ? unescapePattern(pattern) : word.text,
      value: unescapePattern(pattern),
      glob,
      dynamic: false,
      word,
    };
    if (glob) arg.pattern = pattern;
    return arg;
  });
}

export function literalArg(value: string): Arg {
  return { text: value, value, glob: false, dynamic: false };
}

export function runtimeArg(text: string): Arg {
  return { text, value: undefined, glob: false, dynamic: true };
}

/**
 * The command name bash looks up: `/bin/rm` and `\rm` are `rm`. Lower-cased:
 * on a case-insensitive filesystem (macOS, Windows) `RM` runs rm.
 */
export function commandName(arg: Arg): string | undefined {
  if (arg.dynamic || arg.value === undefined) return undefined;
  return path.posix.basename(arg.value).toLowerCase();
}

export interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  short?: string;
  /** Short options whose value is only ever attached (getopt's `x::`: `-i{}`; a bare `-i` takes none). */
  attachedOnly?: string;
  /** Long options that take a value (`--output f`, `--output=f`), without dashes. Others take one only after `=`. */
  long?: string[];
  /** Stop at the first operand (wrappers, POSIX tools); else GNU-style permutation. */
  stopAtOperand?: boolean;
  /** Treat `-<digits>` as an option (nice -10, head -5). */
  numericOptions?: boolean;
}

export interface ParsedOption {
  /** `-r` or `--recursive`. */
  name: string;
  value?: Arg;
}

export interface Parsed {
  options: ParsedOption[];
  operands: Arg[];
  /** Index in the input where operands start (wrappers: the inner command). */
  rest: number;
}

/** getopt-like scan: clusters (`-rf`), attached values (`-n5`, `--x=y`), `--`. */
export function parseOptions(args: Arg[], spec: OptionSpec = {}): Parsed {
  const shortValued = spec.short ?? '';
  const longValued = new Set(spec.long ?? []);
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  let rest = args.length;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (a.dynamic || v === undefined || v === '-' || !v.startsWith('-') || a.glob) {
      if (spec.stopAtOperand) {
        rest = i;
        operands.push(...args.slice(i));
        break;
      }
      operands.push(a);
      continue;
    }
    if (v === '--') {
      rest = i + 1;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (spec.numericOptions && /^-\d+$/.test(v)) {
      options.push({ name: v });
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq >= 0 ? v.slice(0, eq) : v;
      if (eq >= 0) options.push({ name, value: { ...a, text: v.slice(eq + 1), value: v.slice(eq + 1) } });
      else if (longValued.has(name.slice(2)) && i + 1 < args.length) options.push({ name, value: args[++i]! });
      else options.push({ name });
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const letter = v[k]!;
      if (spec.attachedOnly?.includes(letter)) {
        const attached = v.slice(k + 1);
        options.push(attached ? { name: `-${letter}`, value: { ...a, text: attached, value: attached } } : { name: `-${letter}` });
        break;
      }
      if (shortValued.includes(letter)) {
        const attached = v.slice(k + 1);
        if (attached) options.push({ name: `-${letter}`, value: { ...a, text: attached, value: attached } });
        else if (i + 1 < args.length) options.push({ name: `-${letter}`, value: args[++i]! });
        else options.push({ name: `-${letter}` });
        break;
      }
      options.push({ name: `-${letter}` });
    }
  }
  if (rest === args.length && operands.length > 0 && !spec.stopAtOperand) rest = args.indexOf(operands[0]!);
  return { options, operands, rest };
}

export function has(parsed: Parsed, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

export function valuesOf(parsed: Parsed, ...names: string[]): Arg[] {
  return parsed.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}
