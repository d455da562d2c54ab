import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allow, ask, block, context, defer, deny, HookEngine, modify, skip, stop, type HookResult } from '../../src/index.js';

/** Arbitrary results a hook can return; `undefined` is "no opinion". */
const result: fc.Arbitrary<HookResult | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(allow('a')),
  fc.constant(ask('q')),
  fc.constant(defer('d')),
  fc.constant(deny('no')),
  fc.constant(block('blk')),
  fc.constant(stop('halt')),
  fc.constant(skip()),
  fc.string({ maxLength: 5 }).map((s) => context(`c${s}`)),
  fc.string({ maxLength: 5 }).map((s) => modify({ command: s })),
);

const hookList = fc.array(fc.record({ priority: fc.integer({ min: -3, max: 3 }), result }), { minLength: 0, maxLength: 8 });

async function run(hooks: Array<{ priority: number; result: HookResult | undefined }>, parallel = false) {
  const engine = new HookEngine({ parallel });
  const order: number[] = [];
  hooks.forEach((h, i) =>
    engine.register({ name: `h${i}`, events: 'PreToolUse', priority: h.priority, handler: () => (order.push(i), h.result) }),
  );
  const outcome = await engine.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'x' }, session_id: 's' });
  return { outcome, order };
}

/** The hooks in run order: priority descending, then registration order. */
function runOrder(hooks: Array<{ priority: number }>): number[] {
  return hooks
    .map((h, i) => ({ ...h, i }))
    .sort((a, b) => b.priority - a.priority || a.i - b.i)
    .map((h) => h.i);
}

const ENDS = new Set(['deny', 'block', 'stop', 'retry', 'skip']);

describe('merge laws (property tests)', () => {
  it('equal priorities run in registration order; otherwise priority descending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 10 }), async (priorities) => {
        const { order } = await run(priorities.map((priority) => ({ priority, result: undefined })));
        expect(order).toEqual(runOrder(priorities.map((priority) => ({ priority }))));
      }),
    );
  });

  it('a deny or block that runs blocks the outcome, and the decision is deny', async () => {
    await fc.assert(
      fc.asyncProperty(hookList, async (hooks) => {
        const { outcome, order } = await run(hooks);
        const ran = order.map((i) => hooks[i]!.result);
        // hookwise's stop() refuses the tool too (only Claude Code's continue:false lets it run first).
        const blocks = ran.some((r) => r && ['deny', 'block', 'stop'].includes(r.kind));
        expect(outcome.blocked).toBe(blocks);
        if (blocks) expect(outcome.decision).toBe('deny');
      }),
    );
  });

  it('nothing runs after the first chain-ending result, and the ones skipped are recorded', async () => {
    await fc.assert(
      fc.asyncProperty(hookList, async (hooks) => {
        const { outcome, order } = await run(hooks);
        const expected = runOrder(hooks);
        const end = expected.findIndex((i) => hooks[i]!.result && ENDS.has(hooks[i]!.result!.kind));
        const ran = end === -1 ? expected : expected.slice(0, end + 1);
        expect(order).toEqual(ran);
        expect(outcome.hooks.map((h) => h.name)).toEqual(expected.map((i) => `h${i}`));
        expect(outcome.hooks.filter((h) => h.status === 'skipped').length).toBe(expected.length - ran.length);
      }),
    );
  });

  it('the decision is the highest of deny > defer > ask > allow among hooks that ran (no block)', async () => {
    const rank = { allow: 1, ask: 2, defer: 3, deny: 4 } as const;
    await fc.assert(
      fc.asyncProperty(hookList, async (hooks) => {
        const { outcome, order } = await run(hooks);
        const ran = order.map((i) => hooks[i]!.result).filter((r): r is HookResult => r !== undefined);
        if (ran.some((r) => ['deny', 'block', 'stop'].includes(r.kind))) return;
        const decisions = ran.map((r) => r.kind).filter((k): k is keyof typeof rank => k in rank);
        const best = decisions.sort((a, b) => rank[b] - rank[a])[0] ?? null;
        expect(outcome.decision).toBe(best);
      }),
    );
  });

  it('the last modification that ran wins, whatever plain allows follow it', async () => {
    await fc.assert(
      fc.asyncProperty(hookList, async (hooks) => {
        const { outcome, order } = await run(hooks);
        const mods = order.map((i) => hooks[i]!.result).filter((r) => r?.kind === 'modify');
        const last = mods.at(-1) as { updatedInput: unknown } | undefined;
        expect(outcome.updatedInput).toEqual(last ? last.updatedInput : null);
      }),
    );
  });

  it('additionalContext is every context that ran, in order', async () => {
    await fc.assert(
      fc.asyncProperty(hookList, async (hooks) => {
        const { outcome, order } = await run(hooks);
        const texts = order
          .map((i) => hooks[i]!.result)
          .filter((r) => r?.kind === 'context')
          .map((r) => r!.additionalContext);
        expect(outcome.additionalContext).toBe(texts.length ? texts.join('\n') : null);
      }),
    );
  });

  it('parallel mode merges to the same outcome as sequential mode for results that do not rewrite', async () => {
    const noRewrite = fc.array(
      fc.record({ priority: fc.integer({ min: -3, max: 3 }), result: result.filter((r) => r?.kind !== 'modify') }),
      { maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(noRewrite, async (hooks) => {
        const seq = (await run(hooks)).outcome;
        const par = (await run(hooks, true)).outcome;
        const strip = (o: typeof seq) => ({ ...o, hooks: undefined });
        expect(strip(par)).toEqual(strip(seq));
      }),
    );
  });
});
