import type { Explanation } from './explain.js';

const short = (v: unknown, max = 160) => {
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** Explain's answer for a person: sources, hooks in run order, the merge, the Outcome. */
export function formatExplanation(e: Explanation): string {
  const lines = [`${e.event}: ${e.hooks.length} hook${e.hooks.length === 1 ? '' : 's'} registered`, '', 'sources loaded:'];
  for (const s of e.sources) lines.push(`  ${s.kind.padEnd(16)} ${s.file}`);
  if (e.sources.length === 0) lines.push('  (none)');
  lines.push('', 'hooks in run order:');
  e.hooks.forEach((h, i) => {
    const timing = h.durationMs !== null ? ` ${h.durationMs.toFixed(2)} ms` : '';
    const verdict = !h.matched
      ? 'matcher did not select it'
      : h.status === 'skipped'
        ? 'selected, not run: the chain ended before it (an earlier hook refused, stopped or skipped)'
        : `matched, ${h.status}${h.result ? ` → ${h.result}` : ''}${timing}`;
    lines.push(`  ${i + 1}. ${h.name}: ${verdict}`);
    if (h.source) lines.push(`       from ${h.source}`);
    if (h.matched && h.returned !== undefined) lines.push(`       returned ${short(h.returned)}`);
    if (h.error) lines.push(`       error: ${h.error}`);
    if (h.lookedAt && h.matched) lines.push(`       looked at ${h.lookedAt}`);
    if (Object.keys(h.notes).length) lines.push(`       noted ${short(h.notes)}`);
  });
  lines.push('', 'merge:');
  for (const n of e.merge) lines.push(`  - ${n}`);
  const o = e.outcome;
  lines.push(
    '',
    `outcome: decision ${o.decision ?? 'none'}, ${o.blocked ? 'blocked' : 'not blocked'}${e.decidedBy ? `, decided by ${e.decidedBy}` : ''}`,
  );
  if (o.reason) lines.push(`  reason: ${o.reason}`);
  if (o.updatedInput) lines.push(`  updatedInput: ${short(o.updatedInput)}`);
  if (o.additionalContext) lines.push(`  additionalContext: ${short(o.additionalContext)}`);
  return `${lines.join('\n')}\n`;
}
