import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../../path-policy/judge.js';

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

export function globToRegExp(glob: string): RegExp {
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
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
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

const PROTECTED_SAMPLES = [
  '.mcp.json',
  '.cursor',
  '.cursor/mcp.json',
  '.vscode',
  '.vscode/tasks.json',
  '.vscode/launch.json',
  '.vscode/settings.json',
  '.husky',
  '.husky/pre-commit',
  '.npmrc',
  '.git',
  '.git/config',
  '.git/hooks/pre-commit',
  '.claude',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.env',
  '.env.local',
  '.envrc',
  '.bashrc',
  '.zshrc',
  '.profile',
  'hookwise.config.ts',
  'hookwise.config.mjs',
];

/** Which protected entry (if any) a glob inside `dir` could reach. */
export function protectedMatch(policy: PathPolicy, dir: string, glob: string, recursive: boolean, dotglob: boolean): string | undefined {
  const parts = glob.split('/').filter((p) => p !== '');
  const res = parts.map((p) => globToRegExp(p));
  // The policy's own files there too (`sed -i s/x/y/ policy/*.ts`): they are the policy's, whatever their names.
  for (const sample of [...PROTECTED_SAMPLES, ...policy.policyFilesWithin(dir)]) {
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

/** Names a secret path is made of: a glob that could match one is judged as if it did. */
/** Secret wherever they are: tested when the glob has two literal characters (`.en?`, `id_*`, `*.pem`). */
export const SECRET_FILE_NAMES: readonly string[] = [
  '.env',
  '.env.local',
  '.env.production',
  '.env.development',
  '.env.test',
  'id_rsa',
  'id_ed25519',
  'id_ecdsa',
  'id_dsa',
  'server.key',
  'private.pem',
  'key.pem',
];
/** Secret only in their place (`~/.aws/credentials`, `/etc/shadow`): always tested, the place decides. */
const SECRET_PLACES = [
  '.ssh',
  '.aws',
  'credentials',
  'config',
  '.gnupg',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.docker',
  'config.json',
  '.kube',
  '.config',
  'gcloud',
  'gh',
  'hosts.yml',
  '.azure',
  'shadow',
  'gshadow',
  'sudoers',
  'environ',
  'self',
];
const MAX_EXPANSION = 256;

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The concrete paths a read through a glob can reach: what it matches on disk
 * now, and every secret-looking name it could match (a file created later in
 * the same command is not on disk yet). A component needs two literal
 * characters to be tested against names secret anywhere, so `*` alone is
 * never assumed to be `id_rsa`; names secret only in their folder
 * (`credentials`) are always tested, and the folder decides.
 */
export function globReadCandidates(pattern: string, start: string, dotglob: boolean): string[] {
  const parts = pattern.split('/');
  let current = [pattern.startsWith('/') ? '/' : start];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (!/(^|[^\\])[*?[]/.test(part)) {
      const literal = part.replace(/\\(.)/g, '$1');
      current = current.map((c) => path.join(c, literal));
      continue;
    }
    const re = globToRegExp(part);
    const dots = dotglob || /^(\\?\.|\[)/.test(part);
    const literals = part.replace(/\\(.)|[*?]|\[[^\]]*\]/g, '$1').length;
    const next = new Set<string>();
    for (const dir of current) {
      const names = literals >= 2 ? [...listDir(dir), ...SECRET_PLACES, ...SECRET_FILE_NAMES] : [...listDir(dir), ...SECRET_PLACES];
      for (const name of names) {
        if (name.startsWith('.') && !dots) continue;
        if (re.test(name)) next.add(path.join(dir, name));
        if (next.size >= MAX_EXPANSION) break;
      }
    }
    current = [...next];
    if (current.length === 0) break;
  }
  return current;
}
