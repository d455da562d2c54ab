import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The user's OpenCode config folder as OpenCode leaves it after its first start on a
 * machine: `@opencode-ai/plugin` installed there (package.json, its lock, node_modules).
 * OpenCode then skips that install at each start, as it does on a user's machine. Built
 * once into .cache/ (from the same npm cache the cases share); each case links its modules.
 */
export function openCodeUserConfig(dir, version) {
  const template = path.join(repoRoot, '.cache', `opencode-user-config-${version}`);
  const modules = path.join(template, 'node_modules', '@opencode-ai', 'plugin');
  if (!existsSync(modules)) {
    mkdirSync(template, { recursive: true });
    writeFileSync(path.join(template, 'package.json'), '{}\n');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `@opencode-ai/plugin@${version}`], {
      cwd: template,
      env: { ...process.env, npm_config_cache: path.join(repoRoot, '.cache', 'opencode-npm-cache') },
      stdio: 'inherit',
    });
    if (r.status !== 0 || !existsSync(modules))
      throw new Error(`could not install @opencode-ai/plugin@${version} (npm exited ${r.status})`);
  }
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(template, file), path.join(dir, file));
  symlinkSync(path.join(template, 'node_modules'), path.join(dir, 'node_modules'));
}
