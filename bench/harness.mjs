/**
 * A small timing harness: run an async operation in batches until the time
 * budget is spent, keep the best batch (least disturbed by the other core's
 * load), report nanoseconds per operation.
 */
export async function measure(fn, { batch = 20_000, budgetMs = 700, warmup = 3 } = {}) {
  for (let w = 0; w < warmup; w++) for (let i = 0; i < batch; i++) await fn();
  let best = Infinity;
  const end = performance.now() + budgetMs;
  do {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn();
    const ns = Number(process.hrtime.bigint() - t0) / batch;
    if (ns < best) best = ns;
  } while (performance.now() < end);
  return best;
}

export function formatNs(ns) {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}

export function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}
