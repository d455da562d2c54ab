import path from 'node:path';
import type { FileResult } from './run-tests.js';

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** A person's report: each failure with its diff, then the summary and the coverage. */
export function textReport(results: FileResult[], cwd: string): string {
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const r of results) {
    const rel = path.relative(cwd, r.loaded.file) || r.loaded.file;
    for (const c of r.cases) {
      if (c.mismatches.length === 0) {
        passed++;
        lines.push(`  ok    ${rel} > ${c.case.name}`);
        continue;
      }
      failed++;
      lines.push(`  FAIL  ${rel} > ${c.case.name}  (cases[${c.index}], ${c.case.event})`);
      for (const m of c.mismatches) {
        lines.push(`        ${m.field}:`);
        lines.push(`          - expected ${show(m.expected)}`);
        lines.push(`          + actual   ${show(m.actual)}`);
      }
    }
  }
  lines.push('');
  lines.push(`${passed + failed} cases: ${passed} passed, ${failed} failed (${results.length} file${results.length === 1 ? '' : 's'})`);
  const unexercised = results.flatMap((r) => r.unexercised.map((h) => ({ ...h, file: r.loaded.file })));
  if (unexercised.length === 0) lines.push('coverage: every hook of the policy ran in at least one case');
  else {
    lines.push(`coverage: ${unexercised.length} hook${unexercised.length === 1 ? '' : 's'} no case exercised:`);
    for (const h of unexercised) lines.push(`  - ${h.name}${h.source ? `  (${path.relative(cwd, h.source) || h.source})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export function failedCount(results: FileResult[]): number {
  return results.reduce((n, r) => n + r.cases.filter((c) => c.mismatches.length > 0).length, 0);
}
