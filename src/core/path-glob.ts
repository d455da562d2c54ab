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
  const compile = () => picomatch()(pattern.replace(/^\.\//, ''), { dot: true, basename: !pattern.includes('/') });
  const isMatch = lazyGlob(pattern, compile);
  return (input) => {
    const file = filePathOf(input);
    if (file === undefined) return false;
    // Without the fire's cwd a relative path is taken as written: the core never asks the process where it is.
    if (typeof input.cwd !== 'string') return isMatch(path.normalize(file).replace(/^\.\//, ''));
    const cwd = input.cwd;
    const abs = path.resolve(cwd, file);
    if (pattern.startsWith('/')) return isMatch(abs);
    return isMatch(path.relative(cwd, abs));
  };
}

/**
 * Compile a glob on its first test, not at registration: loading and running
 * picomatch costs ~10 ms of a hook command's start-up, and most fires never
 * test a given glob (the tool-name index rules the hook out first). Picomatch
 * rejects only a non-string, an empty or an over-long pattern (a malformed
 * one matches nothing): those compile now, so they throw where they always did.
 */
export function lazyGlob(pattern: unknown, compile: () => (text: string) => boolean): (text: string) => boolean {
  if (typeof pattern !== 'string' || pattern.replace(/^\.\//, '') === '' || pattern.length > MAX_GLOB_LENGTH) return compile();
  let isMatch: ((text: string) => boolean) | undefined;
  return (text) => (isMatch ??= compile())(text);
}

/** picomatch's own limit (its `maxLength` default). */
const MAX_GLOB_LENGTH = 65536;
