import path from 'node:path';

export { projectDirOf } from '../../hosts/call.js';

/** The line a call in a folder with no config answers with (nothing runs). */
export function noConfig(projectDir: string): string {
  return `hookwise: no hookwise.config.{ts,mts,mjs,js} in ${projectDir}; nothing to run`;
}

/**
 * Imported once: a resident looks for the config on every call, and each `import()` in
 * a resident goes to its loader hook's thread and back (src/cli/resident/track.ts).
 */
let discover: Promise<typeof import('../../config/discover.js')> | undefined;

/** The config files of one call: those named with --config, else the project's hookwise.config.*. */
export async function configFiles(named: string[] | undefined, projectDir: string): Promise<string[]> {
  if (named?.length) return named.map((f) => path.resolve(f));
  discover ??= import('../../config/discover.js');
  const { findConfigModule } = await discover;
  const found = findConfigModule(projectDir);
  return found ? [found] : [];
}
