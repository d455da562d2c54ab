import { ParseRefused, type Parser } from './parser.js';
import { RecentMap } from './recent.js';
import { extractScript, type Script, type SimpleCommand } from './script.js';
import { snapshotTree } from './syntax.js';

/**
 * Bounds of one cache: scripts kept, syntax nodes across them (a few hundred bytes
 * each), and the texts remembered as seen once (and how long one may be).
 */
export const PARSE_CACHE_LIMITS = { entries: 1024, nodes: 100_000, seen: 4096, seenChars: 16_384 };

/**
 * The simple commands of scripts, from their text. Parsing and extracting are a pure
 * function of the text (no file system, no clock, no environment), so the result is kept
 * for texts seen before: an agent runs the same few commands again and again (`git
 * status`, `npm test`), and `hookwise serve` judges them on every call. What a guard
 * concludes from a script (paths, symlinks, files read) is never kept: the caller works it
 * out every time.
 *
 * Each shell guard has its own (so one tenant of `hookwise serve` cannot time another's
 * commands through it).
 */
export class ParsedScripts {
  private readonly scripts: RecentMap<string, Script>;
  private readonly seenOnce: RecentMap<string, true>;

  constructor(private readonly limits = PARSE_CACHE_LIMITS) {
    this.scripts = new RecentMap({ entries: limits.entries, weight: limits.nodes });
    this.seenOnce = new RecentMap({ entries: limits.seen, weight: limits.seen });
  }

  /**
   * Run `use` on the script of `source`. A text seen for the first time is only
   * remembered as seen, and `use` reads the parser's own tree, which is gone when `use`
   * returns: copying the tree costs about as much as parsing, which most one-off commands
   * would pay for nothing. From the second time on, the script is a frozen copy shared by
   * every call.
   */
  use<T>(parser: Parser, source: string, use: (script: Script) => T): T {
    const hit = this.scripts.get(source);
    if (hit) return use(hit);
    const tree = parser.parse(source);
    try {
      const again = this.seenOnce.delete(source);
      // One huge script would push out most others: it is read from the parser's tree each time.
      const nodes = again ? tree.rootNode.descendantCount : Infinity;
      if (nodes <= this.limits.nodes / 8) {
        const { root, size } = snapshotTree(tree, source);
        const script = freezeScript(extractScript(root));
        this.scripts.set(source, script, size);
        return use(script);
      }
      if (!again && source.length <= this.limits.seenChars) this.seenOnce.set(source, true);
      return use(extractScript(tree.rootNode));
    } catch (error) {
      // Whatever went wrong while the parser's own tree was read may have left its runtime broken.
      if (!(error instanceof ParseRefused)) parser.failed();
      throw error;
    } finally {
      parser.release(tree);
    }
  }

  /** What it holds now (for tests). */
  stats(): { entries: number; nodes: number; seen: number } {
    return { entries: this.scripts.size, nodes: this.scripts.weight, seen: this.seenOnce.size };
  }
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
