import { HookEngine } from '../compat/engine.js';
import { asHook } from '../core/hook.js';
import type { HookSpec } from '../core/spec.js';
import { ConfigError } from '../config/errors.js';
import type { LoadedConfig } from '../config/load.js';

export interface PolicyOptions {
  /** Config sources; without any, what every host finds in `cwd` (hookwise.config.*, Claude Code settings). */
  files?: string[];
  cwd: string;
  /** Replace each Claude Code `command` hook by one that has no opinion: it is not run (replay does this unless asked). */
  skipCommandHooks?: boolean;
  /** Change each hook before it is registered (explain wraps handlers to see what each returned). */
  transform?: (spec: HookSpec) => HookSpec;
}

export interface LoadedPolicy {
  engine: HookEngine;
  config: LoadedConfig;
  /** Names of the command hooks that will not run. */
  skipped: string[];
}

/** Annotation on a skipped command hook's record in the Outcome. */
export const SKIPPED_NOTE = 'command hook not run (side effects); pass --run-command-hooks to run it';

/** The policy as every host loads it, in an engine that times its hooks. */
export async function loadPolicy(options: PolicyOptions): Promise<LoadedPolicy> {
  const { loadConfig } = await import('../config/load.js');
  const { identityOf } = await import('../config/claude/identity.js');
  const config = await loadConfig({ files: options.files, cwd: options.cwd });
  const engine = new HookEngine({ parallel: config.parallel, timing: true, policyFiles: config.policyFiles });
  const skipped: string[] = [];
  for (const spec of config.hooks) {
    const command = isCommandHook(identityOf(spec));
    let used: HookSpec = options.skipCommandHooks && command ? withoutRunning(spec) : spec;
    if (used !== spec) skipped.push(spec.name);
    if (options.transform) used = options.transform(used);
    try {
      engine.register(asHook(used));
    } catch (error) {
      throw new ConfigError((spec.source ?? 'config').split(' ')[0]!, (error as Error).message);
    }
  }
  return { engine, config, skipped };
}

/** identityOf gives `[event, type, ...]` for hooks from Claude Code settings, plugins and frontmatter. */
function isCommandHook(identity: string | undefined): boolean {
  if (identity === undefined) return false;
  return (JSON.parse(identity) as unknown[])[1] === 'command';
}

function withoutRunning(spec: HookSpec): HookSpec {
  return {
    ...spec,
    async: false,
    handler: (_input, ctx) => {
      ctx.annotate({ notRun: SKIPPED_NOTE });
      return undefined;
    },
  };
}
