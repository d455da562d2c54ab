import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/audit/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: 'é "q"\n' } })).toBe('{"a":{"c":"é \\"q\\"\\n","d":[3,{"x":2,"y":1}]},"b":1}');
  });

  it('tells apart key lists that start alike', () => {
    expect(canonicalJson({ z: 1, a: 2 })).toBe('{"a":2,"z":1}');
    expect(canonicalJson({ z: 1, b: 2 })).toBe('{"b":2,"z":1}');
    expect(canonicalJson({ z: 1, a: 2, c: 3 })).toBe('{"a":2,"c":3,"z":1}');
    expect(canonicalJson({ z: 1, a: 2 })).toBe('{"a":2,"z":1}');
  });

  it('sorts by code unit, integer-like keys included', () => {
    expect(canonicalJson({ b: 1, 10: 'ten', 2: 'two', B: 0 })).toBe('{"10":"ten","2":"two","B":0,"b":1}');
  });

  it('follows JSON for undefined, functions, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ u: undefined, f: () => 1, n: NaN, i: -Infinity, d: new Date(0), arr: [undefined, () => 1] })).toBe(
      '{"arr":[null,null],"d":"1970-01-01T00:00:00.000Z","i":null,"n":null}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('escapes every string as JSON.stringify does, lone surrogates and controls included', () => {
    for (const s of ['a"b', '\\', '\n\t\u0000', '\u2028', '\ud83d\ude00', '\ud83d', '\ude00x', 'plain é']) {
      expect(canonicalJson({ [s]: s })).toBe(JSON.stringify({ [s]: s }));
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(canonicalJson([s])).toBe(JSON.stringify([s]));
      }),
    );
  });

  it('names the path of a cycle or a BigInt', () => {
    const a: Record<string, unknown> = { b: 1 };
    a.c = { d: [1, a] };
    expect(() => canonicalJson({ x: a })).toThrow('canonical JSON: $.x.c.d[1] refers back to one of its parents (a cycle)');
    expect(() => canonicalJson({ x: [1, { y: 2n }] })).toThrow('canonical JSON: $.x[1].y is a BigInt');
  });

  it('is a fixed point, independent of key order, and means what JSON.stringify means', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text).toBe(canonicalJson(reverseKeys(value)));
      }),
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
}
