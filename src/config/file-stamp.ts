import type * as Fs from 'node:fs';

// Not `import ... from 'node:fs'`: its ES-module facade evaluates every export,
// streams included (~3 ms of `hookwise claude-code` start-up). getBuiltinModule is Node 20.16+.
const { statSync } = (process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))) as typeof Fs;

/**
 * What a file is now, as one string: it changes when the file is rewritten, replaced or
 * removed (`missing` while nothing is there). The policy's graph (policy-graph.ts) and
 * the resident's watch (src/cli/resident/track.ts) both compare stamps.
 */
export function stampOf(file: string): string {
  try {
    // No exception for a missing file: most of the paths a load looks at are.
    const s = statSync(file, { throwIfNoEntry: false });
    return s === undefined ? 'missing' : `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    // A folder in the path that is a file (ENOTDIR), or one this user cannot read: nothing there for us.
    return 'missing';
  }
}
