/**
 * A bounded map that keeps what was used recently, in two generations: new and used
 * entries go to the young one; when it is full it becomes the old one and the previous
 * old one is dropped whole. Every operation is O(1) (an LRU that evicts by walking a
 * Map from its start pays for every key deleted before it, and those pile up).
 * Bounds hold across both generations: at most `entries` keys and `weight` in total.
 */
export class RecentMap<K, V> {
  private young = new Map<K, { value: V; weight: number }>();
  private old = new Map<K, { value: V; weight: number }>();
  private youngWeight = 0;
  private oldWeight = 0;

  constructor(private readonly limits: { entries: number; weight: number }) {}

  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young) return young.value;
    const old = this.old.get(key);
    if (!old) return undefined;
    this.old.delete(key);
    this.oldWeight -= old.weight;
    this.set(key, old.value, old.weight);
    return old.value;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** Keep `value`, unless its weight alone is over half the bound (it would push out a generation). */
  set(key: K, value: V, weight = 1): void {
    if (weight > this.limits.weight / 2) return;
    this.delete(key);
    if (this.young.size + 1 > this.limits.entries / 2 || this.youngWeight + weight > this.limits.weight / 2) {
      this.old = this.young;
      this.oldWeight = this.youngWeight;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, { value, weight });
    this.youngWeight += weight;
  }

  delete(key: K): boolean {
    const young = this.young.get(key);
    if (young) {
      this.young.delete(key);
      this.youngWeight -= young.weight;
      return true;
    }
    const old = this.old.get(key);
    if (!old) return false;
    this.old.delete(key);
    this.oldWeight -= old.weight;
    return true;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get weight(): number {
    return this.youngWeight + this.oldWeight;
  }
}
