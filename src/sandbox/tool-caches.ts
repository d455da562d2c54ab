import fs from 'node:fs';
import path from 'node:path';

/**
 * Tool caches inside the sandbox (docs/security.md#the-os-sandbox). The home folder is
 * read-only there, so `npm install` could not write `~/.npm` and `go build` its module
 * cache. Each workspace gets its own caches instead, in hookwise's state folder: shown
 * writable, named to the tools by their own variables, and never used outside the
 * sandbox. The user's real caches are not made writable: a command could plant a
 * package there (cargo runs `~/.cargo/registry/src/**\/build.rs` without checking it
 * again) that a build outside the sandbox would run.
 */

/** The variables that move each tool's cache, and the folder in the workspace's cache each gets. */
export const CACHE_VARIABLES: ReadonlyArray<readonly [string, string]> = [
  ['npm_config_cache', 'npm'],
  ['YARN_CACHE_FOLDER', 'yarn'],
  ['PIP_CACHE_DIR', 'pip'],
  ['GOMODCACHE', 'go-mod'],
  ['GOCACHE', 'go-build'],
];

/**
 * Caches no variable moves alone, shown over the real one when its tool's folder exists:
 * cargo's registry (CARGO_HOME would move its configuration and programs too).
 * Each pair is the folder below the home folder and the one in the workspace's cache.
 */
const OVERLAID: ReadonlyArray<readonly [string, string]> = [['.cargo/registry', 'cargo-registry']];

/**
 * Keys of an npmrc that hold credentials (`//registry.example/:_authToken`, `_auth`,
 * `password`, an inline client `key`): left out of the copy the sandbox shows.
 */
const NPMRC_SECRET = /(^|:)(_auth\w*|_password|password|username|email|token|otp|cert|key|certfile|keyfile)$/i;

/**
 * The user's ~/.npmrc holds registry tokens, so the sandbox masks it; but it also holds
 * the settings every npm run reads (the registry, a proxy, fund and audit off). The
 * sandbox shows a copy without the credentials in its place, written afresh for each
 * command into the workspace's cache (what a command writes there reaches nothing
 * else). Undefined when there is no ~/.npmrc, or it is not a plain file.
 */
export function npmrcWithoutCredentials(cache: string, home: string): [string, string] | undefined {
  const real = path.join(home, '.npmrc');
  const stat = fs.lstatSync(real, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile() || stat.size > 64 * 1024) return undefined;
  const kept = fs
    .readFileSync(real, 'utf8')
    .split(/\r?\n/)
    .filter((line) => {
      const key = /^\s*([^=;#\s][^=]*?)\s*=/.exec(line)?.[1];
      return key === undefined ? !/^\s*[^\s;#]/.test(line) : !NPMRC_SECRET.test(key);
    });
  const copy = path.join(cache, 'npmrc');
  fs.rmSync(copy, { force: true });
  fs.writeFileSync(copy, `${kept.join('\n').trimEnd()}\n`, { mode: 0o600, flag: 'wx' });
  return [copy, real];
}

/** The binds (source, destination) for the overlaid caches whose tool is installed; their folders are made when missing. */
export function overlaidCaches(cache: string, home: string): Array<[string, string]> {
  const binds: Array<[string, string]> = [];
  const npmrc = npmrcWithoutCredentials(cache, home);
  if (npmrc !== undefined) binds.push(npmrc);
  for (const [below, own] of OVERLAID) {
    const target = path.join(home, below);
    const tool = path.dirname(target);
    const stat = fs.lstatSync(tool, { throwIfNoEntry: false });
    // Only a real folder of the tool's: never one reached through a link, which could lead anywhere.
    if (stat === undefined || !stat.isDirectory()) continue;
    try {
      fs.mkdirSync(target, { mode: 0o755 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') continue;
    }
    if (!fs.lstatSync(target).isDirectory()) continue;
    const source = path.join(cache, own);
    fs.mkdirSync(source, { recursive: true, mode: 0o700 });
    binds.push([source, target]);
  }
  return binds;
}
