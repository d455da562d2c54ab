import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/audit/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: 'é "q"\n' } })).toBe(
      '{"a":{"c":"é \\"q\\"\\n","d":[3,{"x":2,"y":1}]},"b":1}',
    );
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

  it('writes every object with a key list it has seen before as it did the first time (layout cache)', () => {
    // Same key lists, different values: a cached layout must not carry values or skipped keys over.
    expect(
      canonicalJson([
        { z: 1, a: 2, m: 3 },
        { z: 'x', a: undefined, m: [] },
        { z: undefined, a: undefined, m: undefined },
      ]),
    ).toBe('[{"a":2,"m":3,"z":1},{"m":[],"z":"x"},{}]');
    // Many lists sharing a first key, more than are remembered per key.
    const lists = Array.from({ length: 20 }, (_, n) =>
      Object.fromEntries([['k', n], ...Array.from({ length: n }, (_, j) => [`a${j}`, j])]),
    );
    for (let round = 0; round < 2; round++) for (const list of lists) expect(canonicalJson(list)).toBe(reference(list));
    // More distinct first keys than the cache holds, long keys, and a list too long to keep.
    const many = Array.from({ length: 1500 }, (_, n) => ({ [`key-${n}`]: n, b: [n] }));
    expect(canonicalJson(many)).toBe(reference(many));
    const long = { ['x'.repeat(300)]: 1, a: { ['y'.repeat(300)]: 2, b: 3 } };
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`w${99 - n}`, n]));
    for (let round = 0; round < 2; round++) {
      expect(canonicalJson(long)).toBe(reference(long));
      expect(canonicalJson(wide)).toBe(reference(wide));
    }
  });

  it('matches a plain reference writer on any JSON value, key lists repeating across records', () => {
    const recordShape = fc.record({
      z: fc.jsonValue(),
      b: fc.option(fc.string(), { nil: undefined }),
      a: fc.array(fc.record({ y: fc.integer(), x: fc.jsonValue() })),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.jsonValue(), recordShape), { maxLength: 8 }), (values) => {
        for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
      }),
    );
  });
});

/** Canonical JSON written the obvious way: what the optimised writer must agree with. */
function reference(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : reference(v))).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  const members = keys
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`);
  return `{${members.join(',')}}`;
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}
