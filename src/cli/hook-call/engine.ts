import type { HookEngine } from '../../core/engine.js';

const TYPESCRIPT = /\.(ts|mts|cts)$/;

/** The project's engine from its config files (a TypeScript config through the module cache). */
export async function loadFor(files: string[], projectDir: string): Promise<HookEngine> {
  // Started together, not each once the module before it has loaded: load-engine
  // imports the loader, which imports the TypeScript cache.
  const [{ loadEngine }] = await Promise.all([
    import('../load-engine.js'),
    import('../../config/load.js'),
    files.some((f) => TYPESCRIPT.test(f)) && import('../../config/module-cache.js'),
  ]);
  return (await loadEngine({ config: files, cwd: projectDir })).engine;
}

/**
 * With `HOOKWISE_AUDIT_DB` set (relative to the project), or in a project set up
 * with `hookwise init --state user` (its audit database in the user's state
 * folder), every fire's Outcome goes to that audit database.
 */
export async function auditTo(engine: HookEngine, projectDir: string) {
  const { defaultAuditPath, usesUserState } = await import('../../audit/paths.js');
  if (!process.env.HOOKWISE_AUDIT_DB && !usesUserState(projectDir)) return undefined;
  const { auditEngine, openAuditStore } = await import('../../audit/index.js');
  const store = openAuditStore({ path: defaultAuditPath(projectDir) });
  auditEngine(engine, store);
  return store;
}
