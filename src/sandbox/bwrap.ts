import path from 'node:path';
import { isWithin } from '../path-policy/resolve.js';
import type { Layout } from './layout.js';
import type { PrivateTemp } from './private-temp.js';
import type { ResolvedSandbox } from './settings.js';
import { CACHE_VARIABLES } from './tool-caches.js';

/** The base every bubblewrap run of hookwise starts from: new namespaces, no capabilities, the whole file system read-only. */
export const READ_ONLY_BWRAP = [
  '--die-with-parent',
  '--unshare-all',
  '--cap-drop',
  'ALL',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

/** Package managers' retry settings, set to none when the command has no network. */
export const NO_RETRIES: ReadonlyArray<readonly [string, string]> = [
  ['npm_config_fetch_retries', '0'],
  ['PIP_RETRIES', '0'],
  ['CARGO_NET_RETRY', '0'],
];

/**
 * bubblewrap's arguments for a layout (Linux). Order matters: later mounts cover
 * earlier ones, so the hidden folders come first, then the roots shown on top of
 * them, then the read-only and masked paths inside the roots.
 */
export function bwrapArgs(layout: Layout, settings: ResolvedSandbox, temp?: PrivateTemp): string[] {
  const args = [...READ_ONLY_BWRAP, '--new-session'];
  if (settings.network === 'on') args.push('--share-net');
  // The command's bash is the first process (no init holding the unscrubbed environment), and its environment file is masked.
  args.push('--as-pid-1', '--ro-bind', '/dev/null', '/proc/1/environ');
  // A session's own /tmp and /var/tmp (private-temp.ts), else an empty one per command.
  for (const top of layout.hidden) {
    const own = temp?.folders[top];
    if (own !== undefined) args.push('--bind', own, top);
    else args.push('--tmpfs', top);
  }
  for (const dir of layout.readable) args.push('--ro-bind-try', dir, dir);
  for (const dir of layout.writable) args.push('--bind', dir, dir);
  for (const dir of layout.pinned) args.push('--bind', dir, dir);
  for (const p of layout.readOnly) args.push('--ro-bind', p, p);
  for (const f of layout.maskedFiles) args.push('--ro-bind', '/dev/null', f);
  for (const d of layout.maskedDirs) {
    args.push('--tmpfs', d);
    // The public files in it (`~/.ssh/*.pub`) shown again before the mask is made read-only.
    for (const f of layout.unmasked) if (path.dirname(f) === d) args.push('--ro-bind', f, f);
    args.push('--remount-ro', d);
  }
  if (temp !== undefined) privateArgs(layout, temp, args);
  args.push('--setenv', 'HOOKWISE_SANDBOX', 'bwrap');
  // No network: package managers fail at once instead of retrying for a minute (npm waits 10 s and more between tries).
  if (settings.network === 'off') for (const [name, value] of NO_RETRIES) args.push('--setenv', name, value);
  return args;
}

/**
 * Every session's folders and every workspace's caches, where the command could see them:
 * masked (its own /tmp is its /tmp, and no other is anywhere), then its workspace's caches
 * shown again in the mask, writable, and named to the tools (tool-caches.ts).
 */
function privateArgs(layout: Layout, temp: PrivateTemp, args: string[]): void {
  const visible = visibleIn(layout, temp.root);
  if (visible) args.push('--tmpfs', temp.root);
  if (temp.cache !== undefined) {
    args.push('--bind', temp.cache, temp.cache);
    for (const [name, folder] of CACHE_VARIABLES) args.push('--setenv', name, path.join(temp.cache, folder));
    for (const [source, target] of temp.overlaid ?? []) args.push('--bind', source, target);
  }
  if (visible) args.push('--remount-ro', temp.root);
}

/** Whether the sandbox shows a path: not in a hidden folder, or in a root shown again on top of one. */
function visibleIn(layout: Layout, p: string): boolean {
  return !layout.hidden.some((top) => isWithin(p, top)) || [...layout.readable, ...layout.writable].some((root) => isWithin(p, root));
}
