/** The `packs` option of shellGuard: which rule packs are on. */
import { PACK_NAMES, type PackName } from './registry.js';
import { GuardOptionError } from '../../errors.js';

/** `true`/`false` per pack; a pack left out keeps its default (every pack is on by default). */
export type PacksOption = Partial<Record<PackName, boolean>>;

export function compilePacks(value: unknown, guard = 'shellGuard'): ReadonlySet<PackName> {
  const on = new Set<PackName>(PACK_NAMES);
  if (value === undefined) return on;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new GuardOptionError(`${guard}: packs must be an object such as { git: true, clouds: false }, got ${JSON.stringify(value)}`);
  for (const [name, enabled] of Object.entries(value)) {
    if (!(PACK_NAMES as readonly string[]).includes(name))
      throw new GuardOptionError(`${guard}: packs.${name} is not a pack; the packs are ${PACK_NAMES.join(', ')}`);
    if (typeof enabled !== 'boolean')
      throw new GuardOptionError(`${guard}: packs.${name} must be true or false, got ${JSON.stringify(enabled)}`);
    if (enabled) on.add(name as PackName);
    else on.delete(name as PackName);
  }
  return on;
}
