import type { SyntaxNode } from './syntax.js';

/**
 * A shell word as bash would see it after quote removal, with the parts that
 * depend on runtime values marked. Globs, braces and tildes are expanded only
 * where they were unquoted, so `pattern` keeps quoted specials backslash-escaped.
 */
export interface Word {
  node: SyntaxNode | undefined;
  /** The source text. */
  text: string;
  /** Unquoted, unescaped value; undefined when the word depends on a runtime value. */
  value: string | undefined;
  /** Like value, but quoted glob/brace/tilde characters are backslash-escaped. */
  pattern: string | undefined;
  /** Variables read by the word that could not be resolved (`$x`, `$(...)`, ...). */
  dynamic: boolean;
  /** Why the word cannot be trusted even as data (e.g. `${x@P}` runs code). */
  hazard?: string;
}

/** Known variable values (HOME, PWD); anything else is dynamic. */
export type Lookup = (name: string) => string | undefined;

const SPECIAL = /[*?[\]{}~\\,]/g;
const escapeSpecials = (s: string) => s.replace(SPECIAL, (c) => `\\${c}`);

interface Acc {
  value: string;
  pattern: string;
  dynamic: boolean;
  hazard?: string;
}

/** Evaluate a word-like node (word, string, raw_string, concatenation, expansion, ...). */
export function evalWord(node: SyntaxNode, lookup: Lookup): Word {
  const acc: Acc = { value: '', pattern: '', dynamic: false };
  walk(node, lookup, acc, false);
  const word: Word = {
    node,
    text: node.text,
    value: acc.dynamic ? undefined : acc.value,
    pattern: acc.dynamic ? undefined : acc.pattern,
    dynamic: acc.dynamic,
  };
  if (acc.hazard) word.hazard = acc.hazard;
  return word;
}

function addQuoted(acc: Acc, s: string): void {
  acc.value += s;
  acc.pattern += escapeSpecials(s);
}

function walk(node: SyntaxNode, lookup: Lookup, acc: Acc, inDoubleQuotes: boolean): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'variable_name':
    case 'string_content':
    case 'heredoc_content':
      if (inDoubleQuotes) addQuoted(acc, unescapeDoubleQuoted(node.text));
      else unescapeUnquoted(node.text, acc);
      return;
    case 'raw_string':
      addQuoted(acc, node.text.slice(1, -1));
      return;
    case 'ansi_c_string':
      addQuoted(acc, decodeAnsiC(node.text.slice(2, -1)));
      return;
    case 'string':
    case 'translated_string': {
      // The grammar leaves some characters (newlines) between its children: take them from the source.
      let prevEnd: number | undefined;
      for (const child of node.children) {
        if (!child) continue;
        if (prevEnd !== undefined && child.startIndex > prevEnd) {
          addQuoted(acc, unescapeDoubleQuoted(node.text.slice(prevEnd - node.startIndex, child.startIndex - node.startIndex)));
        }
        prevEnd = child.endIndex;
        if (!child.isNamed) {
          // The quote characters themselves; an unexpected token means we do not understand the word.
          if (child.type !== '"' && child.type !== '$"') acc.dynamic = true;
          continue;
        }
        walk(child, lookup, acc, true);
      }
      return;
    }
    case 'concatenation':
      for (const child of node.children) if (child) walk(child, lookup, acc, inDoubleQuotes);
      return;
    case 'simple_expansion':
    case 'expansion': {
      if (/@P\s*\}$/.test(node.text) || /@\s*P\s*\}$/.test(node.text))
        acc.hazard = `${node.text} expands a prompt string, which can run commands`;
      const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(node.text)?.[1];
      const known = name !== undefined ? lookup(name) : undefined;
      if (known === undefined) acc.dynamic = true;
      else addQuoted(acc, known);
      return;
    }
    case '$': {
      // `$$`, the shell's process id, parses as a bare `$` node; it is looked up as `$`.
      const known = node.text === '$$' ? lookup('$') : undefined;
      if (known === undefined) acc.dynamic = true;
      else addQuoted(acc, known);
      return;
    }
    case 'command_substitution': {
      // `$(echo git)`, `\`printf rm\``: what a lone echo or printf of fixed words prints is known
      // now. Unquoted, only a single plain word is taken (bash would split or expand anything else).
      const printed = printedBy(node, lookup);
      if (printed === undefined || (!inDoubleQuotes && !/^[\w@%+=:./-]+$/.test(printed))) acc.dynamic = true;
      else addQuoted(acc, printed);
      return;
    }
    default:
      // process_substitution, arithmetic_expansion, brace_expression, unknown:
      // a value only the running shell knows.
      acc.dynamic = true;
  }
}

/**
 * The output of a command substitution that holds one `echo` (no options) or `printf` (one
 * format without `%` or `\\`) of words known now, trailing newlines removed as bash removes
 * them; undefined for anything else.
 */
function printedBy(node: SyntaxNode, lookup: Lookup): string | undefined {
  const inner = node.namedChildren.filter((c) => c !== null);
  const command = inner[0];
  if (inner.length !== 1 || command?.type !== 'command') return undefined;
  const words: string[] = [];
  for (const child of command.namedChildren) {
    if (!child) continue;
    const target = child.type === 'command_name' ? child.namedChildren[0] : child;
    if (!target || !['word', 'string', 'raw_string', 'concatenation'].includes(target.type)) return undefined;
    const word = evalWord(target, lookup);
    if (word.value === undefined || word.hazard) return undefined;
    words.push(word.value);
  }
  const [name, ...args] = words;
  if (name === 'echo' && args.every((a) => !a.startsWith('-'))) return args.join(' ');
  if (name === 'printf' && args.length === 1 && !/[%\\]/.test(args[0]!)) return args[0]!.replace(/\n+$/, '');
  return undefined;
}

/** Outside quotes a backslash quotes the next character; backslash-newline vanishes. */
function unescapeUnquoted(text: string, acc: Acc): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      if (next === '\n') continue;
      acc.value += next;
      acc.pattern += /[*?[\]{}~\\,]/.test(next) ? `\\${next}` : next;
    } else {
      acc.value += c;
      acc.pattern += c;
    }
  }
}

/** Inside double quotes a backslash escapes only $ ` " \ and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'...'`: bash's ANSI-C escapes. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    if (n in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[n];
    else if (n === 'x' || n === 'u' || n === 'U') {
      const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      let hex = '';
      while (hex.length < max && /[0-9a-fA-F]/.test(body[i + 1] ?? '')) hex += body[++i];
      out += hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)) : `\\${n}`;
    } else if (/[0-7]/.test(n)) {
      let oct = n;
      while (oct.length < 3 && /[0-7]/.test(body[i + 1] ?? '')) oct += body[++i];
      out += String.fromCharCode(parseInt(oct, 8) & 0xff);
    } else if (n === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body[++i]!.charCodeAt(0) & 0x1f);
    } else out += `\\${n}`;
  }
  return out;
}

/**
 * Brace expansion on a pattern (`{a,b}`, `{1..3}`), as bash does before
 * anything else. Returns undefined when the result would be huge.
 */
export function expandBraces(pattern: string, limit = 256): string[] | undefined {
  const open = findUnescaped(pattern, '{', 0);
  if (open < 0) return [pattern];
  // Find the matching close and the top-level commas.
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  const head = pattern.slice(0, open);
  if (close < 0) return [pattern];
  const tailResults = expandBraces(pattern.slice(close + 1), limit);
  if (!tailResults) return undefined;
  let alternatives: string[];
  const inner = pattern.slice(open + 1, close);
  if (commas.length > 0) {
    alternatives = [];
    let start = open + 1;
    for (const comma of [...commas, close]) {
      const sub = expandBraces(pattern.slice(start, comma), limit);
      if (!sub) return undefined;
      alternatives.push(...sub);
      start = comma + 1;
    }
  } else {
    const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner);
    if (!range) {
      // Not a brace expression: keep the braces literally and expand what follows.
      return tailResults.map((t) => `${head}{${inner}}${t}`).flatMap((s) => [s]);
    }
    alternatives = sequence(range[1]!, range[2]!, limit);
    if (alternatives.length === 0) return undefined;
  }
  const out: string[] = [];
  for (const alt of alternatives)
    for (const tail of tailResults) {
      out.push(head + alt + tail);
      if (out.length > limit) return undefined;
    }
  return out;
}

function sequence(a: string, b: string, limit: number): string[] {
  const numeric = /^-?\d+$/.test(a) && /^-?\d+$/.test(b);
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  if (Math.abs(to - from) > limit) return [];
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let v = from; step > 0 ? v <= to : v >= to; v += step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

export function findUnescaped(s: string, ch: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ch) return i;
  }
  return -1;
}

/** Whether a pattern has an unquoted glob character. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

/** Remove the backslash escapes a pattern carries. */
export function unescapePattern(pattern: string): string {
  return pattern.includes('\\') ? pattern.replace(/\\(.)/gs, '$1') : pattern;
}
