import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PolicyFile } from '../../src/core/spec.js';

/** These load the built config loader (dist/): run `npm run build` first (npm test does). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(REPO, 'bin', 'hookwise.js');

/** What the policy's rule answers while its files are intact. */
export const INTACT = 'rules intact: ls from-x';

/**
 * A project whose policy is spread over files (issue 38): `hookwise.config.ts` imports
 * `./policy/rules.ts`, which imports `./allow.json` and the package `x`, linked into the
 * project (`node_modules/x` -> `../packages/x`, as `npm link` or a `file:` dependency
 * makes it). `policy/sibling.ts` sits beside them and nothing imports it: the control.
 * `guards`: the config also registers the path guard and the shell guard (no sandbox).
 */
export function writePolicyProject(ws: string, options: { guards?: boolean } = {}): void {
  const files: Record<string, string> = {
    'hookwise.config.ts': [
      `import { defineConfig, deny } from 'hookwise';`,
      ...(options.guards ? [`import { pathGuard, shellGuard } from 'hookwise/guards';`] : []),
      // As TypeScript's ES modules are written: `.js` names the `.ts` file while no `.js` file is there.
      `import { reason } from './policy/rules.js';`,
      `export default defineConfig({ hooks: [`,
      ...(options.guards ? [`  pathGuard(), shellGuard({ sandbox: 'off' }),`] : []),
      `  { name: 'rules', events: 'PreToolUse', matcher: 'Deploy', handler: () => deny(reason) },`,
      `] });`,
      '',
    ].join('\n'),
    'policy/rules.ts': [
      `import allow from './allow.json';`,
      `import { extra } from 'x';`,
      `export const reason: string = \`rules intact: \${allow.commands.join(',')} \${extra}\`;`,
      '',
    ].join('\n'),
    'policy/allow.json': `${JSON.stringify({ commands: ['ls'] })}\n`,
    'policy/sibling.ts': `export const sibling = 'sibling intact';\n`,
    'packages/x/package.json': `${JSON.stringify({ name: 'x', type: 'module', main: 'index.js' })}\n`,
    'packages/x/index.js': `export const extra = 'from-x';\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    fs.writeFileSync(path.join(ws, name), text);
  }
  fs.mkdirSync(path.join(ws, 'node_modules'), { recursive: true });
  fs.symlinkSync(path.join('..', 'packages', 'x'), path.join(ws, 'node_modules', 'x'), 'dir');
  fs.symlinkSync(REPO, path.join(ws, 'node_modules', 'hookwise'), 'dir');
}

export interface LoadedPolicy {
  /** The loaded config's `policyFiles`, which its engine hands every hook as `ctx.policyFiles`. */
  files: PolicyFile[];
  /** What the `rules` hook answers, or the load's error. */
  reason: string;
}

/**
 * Load the project's policy as the next hook call does, in a process of its own (a
 * hook call is one; and Node's module cache of this process would hide a new load):
 * the files it was loaded from, and what its rule says now.
 */
export function loadInChild(ws: string, env: Record<string, string> = {}): LoadedPolicy {
  const script = `
    const { loadConfig, engineFor } = await import(${JSON.stringify(path.join(REPO, 'dist', 'config', 'index.js'))});
    try {
      const config = await loadConfig({ cwd: process.argv[1] });
      const outcome = await engineFor(config).fire('PreToolUse', { tool_name: 'Deploy', tool_input: {}, cwd: process.argv[1] });
      console.log(JSON.stringify({ files: config.policyFiles, reason: outcome.reason ?? '' }));
    } catch (error) {
      console.log(JSON.stringify({ files: [], reason: 'load failed: ' + error.message }));
    }`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, ws], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (run.status !== 0) throw new Error(`loading the policy of ${ws} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as LoadedPolicy;
}
