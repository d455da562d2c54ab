#!/usr/bin/env node
/**
 * `npm test` right after `npm ci` would build dist/ a second time: `prepare` just built
 * it. The build writes a stamp of what it compiled (every file under src/, the
 * tsconfigs, the TypeScript version); before the tests this script builds again only
 * when the stamp is missing or differs, so an edited source is never tested stale.
 *
 *   node scripts/build-if-stale.mjs          build unless dist/ matches the sources
 *   node scripts/build-if-stale.mjs --stamp  record that dist/ matches them (after a build)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist', '.build-stamp');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function stamp() {
  const hash = createHash('sha256');
  const typescript = path.join(root, 'node_modules', 'typescript', 'package.json');
  const inputs = [...files(path.join(root, 'src')), path.join(root, 'tsconfig.json'), path.join(root, 'tsconfig.build.json'), typescript];
  for (const file of inputs) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

if (process.argv[2] === '--stamp') {
  writeFileSync(stampFile, `${stamp()}\n`);
} else if (existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp()) {
  console.log('dist/ matches src/ (built by npm ci or the last build): not rebuilt');
} else {
  rmSync(stampFile, { force: true });
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
