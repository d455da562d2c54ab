import path from 'node:path';

/** Where a config's compiled form (module-cache.ts) and its graph (policy-graph.ts) are kept: `.hookwise/cache/` beside it. */
export function cacheDirFor(file: string): string {
  return path.join(path.dirname(file), '.hookwise', 'cache');
}
