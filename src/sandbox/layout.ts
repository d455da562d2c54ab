import fs from 'node:fs';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { isWithin } from '../path-policy/resolve.js';
import { outsideOf, type Outside } from './outside.js';
import { CONFIG_DIRS, NESTED_CONFIG_DIRS, walkRoot, type Found } from './walk.js';
import type { InstallLink } from '../path-policy/own-install.js';

export { PRIVATE_TEMP } from './outside.js';

/**
 * What the OS sandbox shows a command, derived from the same PathPolicy the guards
 * judge with (docs/security.md#the-os-sandbox). Every path here is real (links
 * resolved) and absolute, except `sweep`, which is relative to the workspace.
 */
export interface Layout {
  workspace: string;
  /** The workspace and the policy's `allowWrite` folders: writable. */
  writable: string[];
  /** Folders shown read-only on top of a hidden folder: the home folder, `allowRead`, the PATH. */
  readable: string[];
  /** Top-level folders replaced by an empty tmpfs: other projects, other users, temp files, sockets. */
  hidden: string[];
  /** Protected files and folders that exist inside a writable folder: read-only. */
  readOnly: string[];
  /** Folders between a writable root and a read-only path: bound to themselves so they cannot be renamed away. */
  pinned: string[];
  /** Secret files: /dev/null is shown in their place. */
  maskedFiles: string[];
  /** Secret folders: an empty read-only folder is shown in their place. */
  maskedDirs: string[];
  /** Files in a masked folder outside the workspace that no secret rule covers (`~/.ssh/*.pub`): shown read-only in it. */
  unmasked: string[];
  /** Protected names missing now: moved aside after the command if it created them. */
  sweep: string[];
  /** Links on the way to hookwise's own install: put back after the command if it pointed one elsewhere. */
  links: InstallLink[];
}

/** Files at the workspace root that launch programs or hold hookwise's policy: moved aside if a command creates them. */
const ROOT_FILES = [
  '.mcp.json',
  '.envrc',
  '.npmrc',
  '.yarnrc.yml',
  '.yarnrc',
  ...['lefthook', '.lefthook', 'lefthook-local', '.lefthook-local'].flatMap((name) =>
    ['yml', 'yaml', 'json', 'jsonc', 'toml'].map((ext) => `${name}.${ext}`),
  ),
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  '.devcontainer.json',
  ...['ts', 'mts', 'cts', 'js', 'mjs', 'cjs', 'json', 'yaml', 'yml'].map((ext) => `hookwise.config.${ext}`),
];

export interface LayoutInputs {
  policy: PathPolicy;
  /** Folders on the PATH: kept visible so the command's programs are found. */
  pathDirs: string[];
}

/** The parts the last layout of a policy was made of, and that layout: while no part changes, the same object is returned. */
const last = new WeakMap<PathPolicy, { parts: object[]; layout: Layout }>();

/**
 * The layout for one call. Both parts are kept between calls and checked against the
 * disk on each (outside.ts: a stat per path it came from; walk.ts: a stat per folder),
 * so a call costs those stats when nothing changed, and a change is seen on the next call.
 */
export function layoutFor({ policy, pathDirs }: LayoutInputs): Layout {
  const roots = policy.realRoots();
  const writable = unique(roots.write.filter((p) => fs.existsSync(p)));
  const outside = outsideOf({ policy, read: roots.read, writable, pathDirs });
  const found = writable.map((root) => walkRoot(policy, root));
  const parts = [outside, ...found];
  const known = last.get(policy);
  if (known !== undefined && known.parts.length === parts.length && parts.every((p, i) => p === known.parts[i])) return known.layout;
  const layout = assemble(roots.workspace, writable, outside, found);
  last.set(policy, { parts, layout });
  return layout;
}

function assemble(workspace: string, writable: string[], outside: Outside, found: Found[]): Layout {
  const readable = outermost(outside.shown, writable);
  // Each mount costs the sandbox's start about 0.2 ms: a mask where nothing is shown hides what is hidden already.
  const visible = (p: string) =>
    !outside.hidden.some((top) => isWithin(p, top)) || [...readable, ...writable].some((root) => isWithin(p, root));
  const readOnly = found.flatMap((f) => f.readOnly);
  const rootNames = found[writable.indexOf(workspace)]?.rootNames;
  const missing = (name: string) =>
    rootNames !== undefined ? !rootNames.has(name) : fs.lstatSync(path.join(workspace, name), { throwIfNoEntry: false }) === undefined;
  const layout: Layout = {
    workspace,
    writable,
    readable,
    hidden: outside.hidden,
    readOnly,
    pinned: unique(found.flatMap((f) => f.pinned)).filter((p) => !readOnly.includes(p)),
    maskedFiles: [...found.flatMap((f) => f.maskedFiles), ...outside.maskedFiles].filter(visible),
    maskedDirs: [...found.flatMap((f) => f.maskedDirs), ...outside.maskedDirs].filter(visible),
    unmasked: outside.unmasked.filter(visible),
    sweep: [
      ...[...CONFIG_DIRS, ...ROOT_FILES].filter(missing),
      ...NESTED_CONFIG_DIRS.filter((name) => fs.lstatSync(path.join(workspace, name), { throwIfNoEntry: false }) === undefined),
      ...found.flatMap((f) => f.sweep.filter((p) => isWithin(p, workspace)).map((p) => path.relative(workspace, p))),
    ],
    links: found.flatMap((f) => f.links),
  };
  // Shared by every call until something changes: nobody may edit it.
  for (const list of Object.values(layout)) if (Array.isArray(list)) Object.freeze(list);
  return Object.freeze(layout);
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/**
 * The folders to show read-only, each mounted once: a folder inside another shown one
 * (~/.cargo/bin in ~/.cargo, ~/.local/bin in the home folder) comes with it (binds are
 * recursive), and one inside a writable root is covered by that root's own mount.
 */
function outermost(folders: string[], writable: string[]): string[] {
  const list = unique(folders);
  return list.filter((p) => !writable.some((w) => isWithin(p, w)) && !list.some((other) => other !== p && isWithin(p, other)));
}
