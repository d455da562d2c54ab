import v8 from 'node:v8';

/**
 * Keeps the bash parser's wasm on V8's baseline compiler (Liftoff) in hookwise's own
 * long-lived processes: the residents and `serve`. Left to itself, V8 recompiles the
 * parser's hot functions (tree-sitter's lexer is one huge function) with its optimizing
 * compiler on background threads over the first few dozen commands: about half a
 * second of CPU, spent while the agent and the command it just allowed are running,
 * on a machine that may have two cores. On Liftoff's code an everyday command parses
 * as fast (15-25 µs either way) and a 60 KB script about 1.3x slower (22 against 17 ms;
 * docs/benchmarks.md, "The Claude Code mod"). A program that imports hookwise keeps its
 * own V8 flags: only these processes call this, before anything loads the parser.
 */
export function keepWasmOnBaseline(): void {
  v8.setFlagsFromString('--liftoff-only');
}
