import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePath, resolvePath } from '../../src/path-policy/resolve.js';

describe('resolvePath and normalizePath', () => {
  it.each([
    '/',
    '/a',
    '/a/b',
    '/a/',
    '//a',
    '/a//b',
    '/a/./b',
    '/a/../b',
    '/.',
    '/..',
    '/a/.',
    '/.git/...',
    '/..a/b.',
    'a/b',
    '',
    '.',
    './a',
  ])('give what path.resolve and path.normalize give for %j', (p) => {
    expect(resolvePath(p)).toBe(path.resolve(p));
    expect(normalizePath(p)).toBe(path.normalize(p));
  });

  it('give what path.resolve and path.normalize give for random paths', () => {
    const part = fc.constantFrom('/', '//', '.', '..', '...', 'a', 'b.c', ' ', '~', '\\', 'é');
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const p = parts.join('');
        expect(resolvePath(p)).toBe(path.resolve(p));
        expect(normalizePath(p)).toBe(path.normalize(p));
      }),
      { numRuns: 5000 },
    );
  });
});
