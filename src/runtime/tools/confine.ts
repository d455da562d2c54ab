import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { HookwiseError } from '../../core/errors.js';

export class OutsideWorkspaceError extends HookwiseError {
  override readonly code = 'OUTSIDE_WORKSPACE';
  constructor(requested: string, workspace: string, why = 'resolves outside the workspace') {
    super(`refused: ${requested} ${why} (${workspace})`);
  }
}

/**
 * The real path of `requested` (relative to the workspace, or absolute), refusing
 * anything that resolves outside the workspace, through `..` or symlinks
 * (dangling ones included: writing through them would create a file outside).
 */
export function confine(workspace: string, requested: string): string {
  const root = realpathSync(workspace);
  const absolute = path.resolve(root, requested);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  let real: string;
  try {
    real = path.join(realpathSync(existing), ...missing);
  } catch {
    throw new OutsideWorkspaceError(requested, root, 'is a symlink that points nowhere');
  }
  if (real !== root && !real.startsWith(root + path.sep)) throw new OutsideWorkspaceError(requested, root);
  return real;
}

/** The path as the model should see it: relative to the workspace. */
export function shown(workspace: string, real: string): string {
  return path.relative(realpathSync(workspace), real) || '.';
}
