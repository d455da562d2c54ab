import path from 'node:path';
import type { PathPolicy } from '../paths/judge.js';

/**
 * Writes through a glob: bash expands it against the files present when it
 * runs, so the guard judges the folder it expands in and whether it could
 * reach `..` or a protected name there.
 */

/** Older bash matches `..` with `.*`; a glob only reaches dot entries when it starts with a dot. */
export function couldMatchDotDot(component: string): boolean {
  if (!/(^|[^\\])[*?[]/.test(component) || !/^(\\)?\./.test(component)) return false;
  const re = globToRegExp(component);
  return re.test('..');
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') re += `\\${glob[++i] ?? '\\'}`.replace(/^\\([A-Za-z0-9])$/, '$1');
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\]/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return /^[\s\S]*$/;
  }
}

const PROTECTED_SAMPLES = ['.git', '.git/config', '.git/hooks/pre-commit', '.claude', '.claude/settings.json', '.claude/settings.local.json', '.env', '.env.local', '.envrc', '.bashrc', '.zshrc', '.profile', 'hookwise.config.ts', 'hookwise.config.mjs'];

/** Which protected entry (if any) a glob inside `dir` could reach. */
export function protectedMatch(policy: PathPolicy, dir: string, glob: string, recursive: boolean, dotglob: boolean): string | undefined {
  const parts = glob.split('/').filter((p) => p !== '');
  const res = parts.map((p) => globToRegExp(p));
  for (const sample of PROTECTED_SAMPLES) {
    const target = path.join(dir, sample);
    const sampleParts = path.relative(dir, target).split('/');
    const n = res.length;
    if (sampleParts.length < n) continue;
    if (sampleParts.length > n && !recursive) continue;
    let ok = true;
    for (let i = 0; i < n; i++) {
      const name = sampleParts[i]!;
      if (name.startsWith('.') && !dotglob && !parts[i]!.startsWith('.') && !parts[i]!.startsWith('\\.')) {
        ok = false;
        break;
      }
      if (!res[i]!.test(name) && !res[i]!.test(name.toLowerCase())) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const v = policy.check(target, 'write', { cwd: dir, recursive });
    if (v.level === 'deny') return sampleParts.slice(0, n).join('/');
  }
  return undefined;
}
