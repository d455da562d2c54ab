import { parseBash, type Parser } from './parser.js';
import { RecentMap } from './recent.js';
import { extractScript, type Script, type SimpleCommand } from './script.js';
import { snapshotTree } from './syntax.js';

/**
 * Run `use` on the simple commands of a script, from its text. Parsing and extracting are
 * a pure function of the text (no file system, no clock, no environment), so the result
 * is kept for texts seen before: an agent runs the same few commands again and again
 * (`git status`, `npm test`), and `hookwise serve` judges them on every call. What a guard
 * concludes from the script (paths, symlinks, files read) is never kept: `use` works it
 * out every time.
 *
 * A text seen for the first time is only remembered as seen, and `use` reads the
 * parser's own tree, which is gone when `use` returns: copying the tree costs about as
 * much as parsing, which most one-off commands would pay for nothing. From the second
 * time on, the script is a frozen copy shared by every caller.
 */
export function withParsedScript<T>(parser: Parser, source: string, use: (script: Script) => T): T {
  const hit = scripts.get(source);
  if (hit) return use(hit);
  const tree = parseBash(parser, source);
  try {
    const again = seenOnce.delete(source);
    // One huge script would push out most others: it is read from the parser's tree each time.
    const nodes = again ? tree.rootNode.descendantCount : Infinity;
    if (nodes <= PARSE_CACHE_LIMITS.nodes / 8) {
      const { root, size } = snapshotTree(tree, source);
      const script = freezeScript(extractScript(root));
      scripts.set(source, script, size);
      return use(script);
    }
    if (!again && source.length <= PARSE_CACHE_LIMITS.seenChars) seenOnce.set(source, true);
    return use(extractScript(tree.rootNode));
  } finally {
    tree.delete();
  }
}

/**
 * Bounds: scripts kept, syntax nodes across them (a few hundred bytes each), and the
 * texts remembered as seen once (and how long one may be).
 */
export const PARSE_CACHE_LIMITS = { entries: 1024, nodes: 100_000, seen: 4096, seenChars: 16_384 };

/** Scripts by text, weighed by their syntax nodes. */
const scripts = new RecentMap<string, Script>({ entries: PARSE_CACHE_LIMITS.entries, weight: PARSE_CACHE_LIMITS.nodes });
const seenOnce = new RecentMap<string, true>({ entries: PARSE_CACHE_LIMITS.seen, weight: PARSE_CACHE_LIMITS.seen });

/** What the cache holds now (for tests). */
export function parseCacheStats(): { entries: number; nodes: number; seen: number } {
  return { entries: scripts.size, nodes: scripts.weight, seen: seenOnce.size };
}

/** Forget everything (for tests and benchmarks that measure parsing). */
export function clearParseCache(): void {
  scripts.clear();
  seenOnce.clear();
}

/** A shared script must not be changed by one caller under another: any write throws. */
function freezeScript(script: Script): Script {
  const frozen = new Set<SimpleCommand>();
  const freezeCommand = (cmd: SimpleCommand) => {
    if (frozen.has(cmd)) return;
    frozen.add(cmd);
    Object.freeze(cmd.words);
    Object.freeze(cmd.assignments);
    for (const r of cmd.redirects) {
      if (r.heredoc) Object.freeze(r.heredoc);
      Object.freeze(r);
    }
    Object.freeze(cmd.redirects);
    if (cmd.upstream) {
      for (const up of cmd.upstream) freezeCommand(up);
      Object.freeze(cmd.upstream);
    }
    Object.freeze(cmd);
  };
  for (const cmd of script.commands) freezeCommand(cmd);
  for (const cmds of script.functions.values()) for (const cmd of cmds) freezeCommand(cmd);
  Object.freeze(script.commands);
  Object.freeze(script.problems);
  return Object.freeze(script);
}
