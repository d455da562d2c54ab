/**
 * JSON paths as people read them in error messages: `hooks.PreToolUse[0].hooks[1].timeout`.
 * Keys that are not identifiers are quoted: `hooks.preToolUse["security-check"]`.
 */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function joinPath(base: string, ...segments: PathSegment[]): string {
  let out = base;
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
