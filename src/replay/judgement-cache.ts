import type { RecordedCall } from './types.js';

/** Past this many distinct calls the cache starts again: a bound on memory, not a policy. */
const MAX_ENTRIES = 200_000;

/**
 * The judgement of each distinct call, so a trail that runs `git status` 5,000 times
 * asks the policy once. A call is its tool, input, folder and permission mode: what
 * the hooks see of it besides the session and the ids, which only a hook that counts
 * or remembers (a budget guard) would read; replay without the cache for those
 * (`hookwise replay --no-cache`).
 */
export class JudgementCache<T = unknown> {
  private readonly entries = new Map<string, T>();

  keyOf(call: RecordedCall, projectDir: string): string {
    return JSON.stringify([call.tool, projectDir, call.permissionMode ?? null, call.toolInput]);
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
  }
}
