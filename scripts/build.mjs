#!/usr/bin/env node
/**
 * The build (tsc into dist/), stamped with a hash of what it compiled: every file under
 * src/, the tsconfigs and the TypeScript version. `npm test` right after `npm ci` would
 * otherwise build a second time (`prepare` just built); with --if-stale it builds only
 * when the stamp is missing or differs, so an edited source is never tested stale.
 * The hash is taken before tsc reads the sources: a file edited during the build
 * leaves a stamp that no longer matches.
 *
 *   node scripts/build.mjs             build
 *   node scripts/build.mjs --if-stale  build unless dist/ matches the sources
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const before = stamp();
if (process.argv[2] === '--if-stale' && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === before) {
  console.log('dist/ matches src/ (built by npm ci or the last build): not rebuilt');
} else {
  rmSync(stampFile, { force: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // --noCheck: emit only. The type check is `npm run typecheck` (src/) and, in `npm test`,
  // typecheck:test (src/ and test/ together): checking src/ here too doubled the work.
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: root, stdio: 'inherit' });
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${before}\n`);
}
