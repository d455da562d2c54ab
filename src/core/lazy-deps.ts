import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';
import type { RE2JS as RE2JSType } from 're2js';

/**
 * The regex and glob engines load on first use: a policy of exact names never
 * pays for them, and a hook command an agent runs starts on every tool call.
 */
const require = createRequire(import.meta.url);
let re2: typeof RE2JSType | undefined;
let glob: typeof picomatchType | undefined;

export function RE2JS(): typeof RE2JSType {
  re2 ??= (require('re2js') as { RE2JS: typeof RE2JSType }).RE2JS;
  return re2;
}

export function picomatch(): typeof picomatchType {
  glob ??= require('picomatch') as typeof picomatchType;
  return glob;
}
