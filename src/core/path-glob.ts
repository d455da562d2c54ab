import path from 'node:path';
import { picomatch } from './lazy-deps.js';
import { filePathOf, type HookInput } from './input.js';

/**
 * A glob on the file a tool call touches, used by the `path` matcher and by
 * permission rules such as `Edit(src/**)`. The path is normalised against the
 * input's cwd first; a pattern without `/` matches the basename at any depth; a
 * pattern starting with `/` is absolute.
 */
export function toolPathGlob(pattern: string): (input: HookInput) => boolean {
  const isMatch = picomatch()(pattern.replace(/^\.\//, ''), { dot: true, basename: !pattern.includes('/') });
  return (input) => {
    const file = filePathOf(input);
    if (file === undefined) return false;
    const cwd = typeof input.cwd === 'string' ? input.cwd : process.cwd();
    const abs = path.resolve(cwd, file);
    if (pattern.startsWith('/')) return isMatch(abs);
    return isMatch(path.relative(cwd, abs));
  };
}
