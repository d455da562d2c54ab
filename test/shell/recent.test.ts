import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/shell/recent.js';

describe('RecentMap', () => {
  it('keeps what was used recently and drops what was not, within its entries', () => {
    const m = new RecentMap<string, number>({ entries: 4, weight: 100 });
    for (const k of ['a', 'b', 'c', 'd']) m.set(k, k.charCodeAt(0));
    expect(m.get('a')).toBe(97); // used: it moves to the young generation
    m.set('e', 1);
    m.set('f', 2);
    expect(m.size).toBeLessThanOrEqual(4);
    expect(m.get('a')).toBe(97);
    expect(m.has('b')).toBe(false);
    expect(m.has('c')).toBe(false);
    expect(m.get('f')).toBe(2);
  });

  it('bounds the total weight, and refuses one value heavier than half of it', () => {
    const m = new RecentMap<number, string>({ entries: 1000, weight: 100 });
    for (let i = 0; i < 50; i++) {
      m.set(i, `v${i}`, 7);
      expect(m.weight).toBeLessThanOrEqual(100);
    }
    expect(m.get(49)).toBe('v49');
    m.set(1000, 'heavy', 51);
    expect(m.has(1000)).toBe(false);
    m.set(1001, 'half', 50);
    expect(m.get(1001)).toBe('half');
    expect(m.weight).toBeLessThanOrEqual(100);
  });

  it('replaces and deletes, keeping its weight right', () => {
    const m = new RecentMap<string, string>({ entries: 10, weight: 100 });
    m.set('a', 'x', 10);
    m.set('a', 'y', 20);
    expect(m.get('a')).toBe('y');
    expect(m.weight).toBe(20);
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    expect(m.weight).toBe(0);
    expect(m.size).toBe(0);
  });
});
