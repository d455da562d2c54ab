import type { HookSpec } from '../../core/spec.js';
import { buildSpec, type EntryContext } from './build-spec.js';
import { collectHooks } from './collect.js';

/** Collect the entries of a `hooks` block and turn each into a HookSpec. */
export function specsFromHooksBlock(
  hooks: unknown,
  base: string,
  ctx: EntryContext,
): { hooks: HookSpec[]; warnings: string[]; skipped: string[] } {
  const { entries, warnings, skipped } = collectHooks(hooks, ctx.file, base);
  return { hooks: entries.map((entry) => buildSpec(entry, ctx)), warnings, skipped };
}
