import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * What `npm pack` puts in the tarball a user installs. The strict-TypeScript consumer of
 * that tarball is ./consumer.e2e.test.ts (`npm run test:e2e`).
 */
const root = path.resolve(import.meta.dirname, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'hookwise-tarball-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('ships only what a user needs: no sources, tests, maps, caches, build stamp or CLI typings', () => {
    const tgz = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    const files = execFileSync('tar', ['-tzf', path.join(out, tgz)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/bin/hookwise.js');
    expect(files).toContain('package/vendor/tree-sitter-bash/tree-sitter-bash.wasm');
    expect(
      files.filter((f) =>
        /\.map$|\/\.hookwise\/|^package\/(src|test|bench|scripts)\/|^package\/dist\/cli\/.*\.d\.ts$|\.build-stamp$/.test(f),
      ),
    ).toEqual([]);
  });
});
