import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
// Named type imports only: a namespace import puts all of web-tree-sitter's declarations
// (and their Emscripten globals) into a strict consumer's type-check (test/package).
import type { Language, Node, ParseState, Parser as TreeSitterParser, Tree } from 'web-tree-sitter';
import { overLimit, SHELL_INPUT_LIMITS, type ShellInputLimits } from './limits.js';
import { HookwiseError } from '../core/errors.js';

const MiB = 1024 * 1024;
const WASM_PAGE = 64 * 1024;

/**
 * What one parse may spend. Past either, the parse is cancelled, the command refused,
 * and the wasm instance replaced (its memory never shrinks). The time is generous: a
 * command at the input limits parses in well under a second on a loaded machine.
 */
export interface ParseBudget {
  timeMs: number;
  /** The wasm runtime's memory (it starts at 32 MiB). */
  memoryBytes: number;
}

export const PARSE_BUDGET: Readonly<ParseBudget> = Object.freeze({ timeMs: 3_000, memoryBytes: 256 * MiB });

/** What one wasm instance may ever hold; past it the runtime aborts (a failure: the instance is replaced). */
const MEMORY_CEILING_BYTES = 512 * MiB;

/** A command hookwise would not or could not parse; the message says why, for the person reading the refusal. */
export class ParseRefused extends HookwiseError {
  override readonly code = 'PARSE_REFUSED';
}

/** The part of WebAssembly.Memory read here (this project's TypeScript libs do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => WasmMemory } })
  .WebAssembly;

interface Instance {
  parser: TreeSitterParser;
  language: Language;
  memory: WasmMemory;
}

const require = createRequire(import.meta.url);
const GRAMMAR = fileURLToPath(new URL('../../vendor/tree-sitter-bash/tree-sitter-bash.wasm', import.meta.url));

/**
 * web-tree-sitter's wasm runtime with tree-sitter-bash's grammar (vendored as its wasm
 * alone, vendor/tree-sitter-bash/README.md says why). web-tree-sitter keeps one
 * runtime per copy of its module, and a runtime that aborted (out of memory) answers
 * "Aborted()" to every later call: so each instance is loaded from a fresh copy of the
 * module (its CommonJS build, taken out of require's cache), and an instance that
 * failed is dropped, with all its memory, for a new one.
 */
async function loadInstance(ceilingBytes: number): Promise<Instance> {
  const id = require.resolve('web-tree-sitter');
  delete require.cache[id];
  const runtime = require(id) as typeof import('web-tree-sitter');
  delete require.cache[id];
  // web-tree-sitter's own initial size; the ceiling is ours (its default is 2 GiB).
  const memory = new Memory({ initial: (32 * MiB) / WASM_PAGE, maximum: Math.ceil(ceilingBytes / WASM_PAGE) });
  // An abort is reported by the ParseRefused that follows it, not on the process's stderr.
  await runtime.Parser.init({ wasmMemory: memory, printErr: () => {} } as Parameters<typeof runtime.Parser.init>[0]);
  const language = await runtime.Language.load(GRAMMAR);
  const parser = new runtime.Parser();
  parser.setLanguage(language);
  return { parser, language, memory };
}

/**
 * The bash parser. Loading costs tens of milliseconds, so a process keeps one
 * (loadBashParser) and every guard shares it; a failed parse never outlives its call:
 * the next one gets a new instance.
 */
export class BashParser {
  private instance: Instance | undefined;
  private loading: Promise<BashParser> | undefined;
  /** How many instances were loaded (a new one after each failure). */
  generation = 0;

  constructor(private readonly options: { memoryCeilingBytes?: number } = {}) {}

  /** Resolves once an instance is ready; the same promise until one fails. */
  load(): Promise<BashParser> {
    if (this.instance) return (this.loading ??= Promise.resolve(this));
    this.loading ??= loadInstance(this.options.memoryCeilingBytes ?? MEMORY_CEILING_BYTES).then(
      (instance) => {
        this.instance = instance;
        this.generation++;
        return this;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** Whether parse() can run now (false before the first load, and while a failed instance is replaced). */
  get ready(): boolean {
    return this.instance !== undefined;
  }

  get language(): Language | undefined {
    return this.instance?.language;
  }

  /**
   * Parse `source`, within the input limits and the budget; the caller must delete()
   * the tree when done. Over a limit, past the budget, or if the runtime fails: a
   * ParseRefused naming why, and the next parse runs on a new instance.
   */
  parse(source: string, limits: ShellInputLimits = SHELL_INPUT_LIMITS, budget: ParseBudget = PARSE_BUDGET): Tree {
    const over = overLimit(source, limits);
    if (over) throw new ParseRefused(over);
    const instance = this.instance;
    if (!instance) throw new ParseRefused('the bash parser is not loaded (it is reloading after a failed parse); try the command again');
    const deadline = performance.now() + budget.timeMs;
    let spent: string | undefined;
    const progressCallback = () => {
      if (instance.memory.buffer.byteLength > budget.memoryBytes) spent = `over ${Math.round(budget.memoryBytes / MiB)} MiB of memory`;
      else if (performance.now() > deadline) spent = `over ${budget.timeMs} ms`;
      return spent !== undefined;
    };
    let tree: Tree | null;
    try {
      tree = instance.parser.parse(source, null, { progressCallback: progressCallback as (state: ParseState) => void });
    } catch (error) {
      this.failed(instance);
      const why = String((error as Error)?.message ?? error).replace(/\. Build with .*$/s, '');
      throw new ParseRefused(`the bash parser failed on this command (${why}); it is reloaded for the next one`);
    }
    if (!tree) {
      // A cancelled parse would resume on the next call, and the memory it took stays: a new instance.
      this.failed(instance);
      throw new ParseRefused(`parsing the command took ${spent ?? 'too long'}; hookwise refuses what it cannot parse in time`);
    }
    return tree;
  }

  /**
   * Drop `instance` (when it is still the current one) and start loading the next at
   * once, so the next call rarely waits. Its trees still in use keep it alive until deleted.
   */
  failed(instance: Instance | undefined = this.instance): void {
    if (!instance || instance !== this.instance) return;
    this.instance = undefined;
    this.loading = undefined;
    this.load().catch(() => {});
  }

  /** Delete a tree; a tree of an instance that failed may fail to delete, and goes with its instance. */
  release(tree: Tree): void {
    try {
      tree.delete();
    } catch {
      if (tree.language === this.instance?.language) this.failed();
    }
  }
}

/** The process's parser, shared by every guard and the core's `Bash(...)` splitter. */
const shared = new BashParser();

export function loadBashParser(): Promise<BashParser> {
  return shared.load();
}

/** Parse with the loaded parser; the caller must delete() (or parser.release()) the tree when done. */
export function parseBash(parser: BashParser, source: string, limits?: ShellInputLimits): Tree {
  return parser.parse(source, limits);
}

export type { Node, Tree, BashParser as Parser };
