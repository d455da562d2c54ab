/**
 * What a command may hold before hookwise parses it (docs/security.md, "The bash
 * parser"). tree-sitter's bash grammar is slow on long pipelines: a 160 KB one of
 * 20,000 `| true` ran its wasm runtime out of memory at 2 GB after a minute, so these are
 * checked on the text first, and a command past one is refused with the reason.
 */
export interface ShellInputLimits {
  /** Characters (UTF-16 units) in one command. */
  chars: number;
  /** `|` and `|&` between commands (not `||`, not in quotes, comments or here-documents). */
  pipes: number;
  /** Brackets open at once: `(`, `{`, `[`, `$(`, `${`, `$((`, ... */
  nesting: number;
}

export const SHELL_INPUT_LIMITS: Readonly<ShellInputLimits> = Object.freeze({ chars: 65_536, pipes: 128, nesting: 64 });

const OPENERS = new Set(['(', '{', '[']);
const CLOSERS: Record<string, string> = { ')': '(', '}': '{', ']': '[' };
/** `<<WORD`, `<<-WORD`, `<<'WORD'`, `<<"WORD"` (not `<<<`): the here-document's delimiter. */
const HEREDOC = /^<<(-?)[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([A-Za-z0-9_.-]+))/;

/**
 * Why `source` is over `limits`, or undefined when it is within them. The scan is a
 * rough reading of bash, never the judge: miscounting inside a construct it does not
 * model only moves the point where the parse budget (parser.ts) takes over, and it
 * counts on the side of refusing.
 */
export function overLimit(source: string, limits: ShellInputLimits = SHELL_INPUT_LIMITS): string | undefined {
  if (source.length > limits.chars) {
    return `the command is ${source.length} characters long; hookwise parses commands of at most ${limits.chars} (write long content to a file with the Write tool instead)`;
  }
  const { pipes, nesting } = scan(source, limits);
  if (pipes > limits.pipes)
    return `the command chains more than ${limits.pipes} pipes (|); hookwise parses at most ${limits.pipes} in one command`;
  if (nesting > limits.nesting)
    return `the command nests brackets more than ${limits.nesting} deep; hookwise parses at most ${limits.nesting} levels`;
  return undefined;
}

/**
 * Pipes and the deepest nesting, skipping quotes, comments and here-document bodies.
 * It stops once either is past its limit, so a closing bracket never searches a
 * stack deeper than the limit.
 */
function scan(s: string, limits: ShellInputLimits): { pipes: number; nesting: number } {
  let pipes = 0;
  let nesting = 0;
  // Open brackets, and `"` for a double-quoted string (where only `$(` and `${` open).
  const stack: string[] = [];
  let depth = 0;
  const heredocs: Array<{ word: string; tabs: boolean }> = [];
  const open = (c: string) => {
    stack.push(c);
    if (++depth > nesting) nesting = depth;
  };
  const close = (c: string) => (depth -= closeBracket(stack, c));
  let i = 0;
  while (i < s.length && pipes <= limits.pipes && nesting <= limits.nesting) {
    const c = s[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '\n' && heredocs.length > 0) {
      i = skipHeredocs(s, i + 1, heredocs.splice(0));
      continue;
    }
    if (stack.at(-1) === '"') {
      if (c === '"') stack.pop();
      else if (c === '$' && (s[i + 1] === '(' || s[i + 1] === '{')) open(s[++i]!);
      i++;
      continue;
    }
    if (c === "'") {
      // $'...' takes backslash escapes; '...' does not.
      const ansi = s[i - 1] === '$';
      i++;
      while (i < s.length && s[i] !== "'") i += ansi && s[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '"') stack.push('"');
    else if (c === '#' && (i === 0 || /[\s;&|()]/.test(s[i - 1]!))) {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    } else if (OPENERS.has(c)) open(c);
    else if (c in CLOSERS) close(c);
    else if (c === '|') {
      if (s[i + 1] === '|') i++;
      else pipes++;
    } else if (c === '<' && s[i + 1] === '<' && s[i + 2] !== '<') {
      const m = HEREDOC.exec(s.slice(i, i + 256));
      if (m) {
        heredocs.push({ word: m[2] ?? m[3] ?? m[4]!, tabs: m[1] === '-' });
        i += m[0].length;
        continue;
      }
    }
    i++;
  }
  return { pipes, nesting };
}

/**
 * A closing bracket closes the innermost one it matches, and any left open inside it
 * (a `)` of a `case` pattern closes nothing); a string it is not in stops the search.
 * Returns how many brackets it closed.
 */
function closeBracket(stack: string[], c: string): number {
  const opener = CLOSERS[c]!;
  for (let k = stack.length - 1; k >= 0; k--) {
    if (stack[k] === '"') return 0;
    if (stack[k] === opener) {
      const closed = stack.length - k;
      stack.length = k;
      return closed;
    }
  }
  return 0;
}

/** Past the bodies of the here-documents started on the line before `from`. */
function skipHeredocs(s: string, from: number, pending: Array<{ word: string; tabs: boolean }>): number {
  let i = from;
  for (const { word, tabs } of pending) {
    while (i < s.length) {
      const end = s.indexOf('\n', i);
      const line = s.slice(i, end < 0 ? s.length : end);
      i = end < 0 ? s.length : end + 1;
      if ((tabs ? line.replace(/^\t+/, '') : line) === word) break;
    }
  }
  return i;
}
