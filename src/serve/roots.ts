import { realpathSync } from 'node:fs';
import { insideRoots } from './tenants.js';

/**
 * A tenant's project directory, where it really is: compared with the tenant's
 * `projectRoots` after following every link, as the guards follow them (a
 * `R/link-root` pointing to `/` is `/`). The guards then work in the real directory,
 * so a link changed after this check changes nothing. Undefined when it is outside,
 * or cannot be resolved (it does not exist): both are refusals.
 */
export function realProjectDir(projectDir: string, roots: string[]): string | undefined {
  let real: string;
  try {
    real = realpathSync(projectDir);
  } catch {
    return undefined;
  }
  return insideRoots(real, roots.map(realRoot)) ? real : undefined;
}

/** A root that does not exist (yet) is compared as written. */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}
