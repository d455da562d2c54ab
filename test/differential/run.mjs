#!/usr/bin/env node
/**
 * `npm run test:claude-code`: the differential suite. Every case of cases.mjs runs in
 * real Claude Code (installed into .cache/ on first use) and in hookwise (dist/, so
 * build first), and the two observations must be equal. Exit 1 on any difference.
 *
 *   node test/differential/run.mjs [--filter text] [--jobs 2] [--verbose]
 */
import { isDeepStrictEqual } from 'node:util';
import { cases } from './cases.mjs';
import { claudeBinary, runClaudeCode, runHookwise } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const filter = option('--filter');
const jobs = Number(option('--jobs') ?? 2);
const verbose = args.includes('--verbose');

const selected = cases.filter((c) => !filter || c.name.includes(filter));
claudeBinary();

const results = new Array(selected.length);
let next = 0;
async function worker() {
  while (next < selected.length) {
    const i = next++;
    const c = selected[i];
    const [claude, hookwise] = await Promise.all([runClaudeCode(c), runHookwise(c)]);
    const { raw, ...observed } = claude;
    const same = isDeepStrictEqual(observed, hookwise);
    results[i] = { c, same, claude: observed, hookwise, raw };
    process.stdout.write(`${same ? 'same' : 'DIFF'}  [${c.item}] ${c.name}\n`);
    if (!same || verbose) {
      process.stdout.write(`      claude code: ${JSON.stringify(observed)}\n      hookwise:    ${JSON.stringify(hookwise)}\n`);
      if (verbose) process.stdout.write(`      (claude exit ${raw.code}, ${raw.requests} model requests)\n`);
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
const differ = results.filter((r) => !r.same);
process.stdout.write(
  `\n${results.length - differ.length} of ${results.length} cases behave the same in Claude Code 2.1.197 and hookwise\n`,
);
process.exitCode = differ.length === 0 ? 0 : 1;
