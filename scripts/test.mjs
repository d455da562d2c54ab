#!/usr/bin/env node
/**
 * `npm test` after its pretest (build if stale, lint): the type check of src/ and test/
 * (`npm run typecheck:test`) and vitest run side by side, since neither needs the other;
 * the run fails if either does. Arguments go to vitest (`npm test -- test/core`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (p) => path.join(root, 'node_modules', p);

function run(args, capture) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const [types, tests] = await Promise.all([
  run([bin('typescript/bin/tsc'), '-p', 'tsconfig.test.json'], true),
  run([bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], false),
]);
if (types.code === 0) console.log('typecheck:test (tsc -p tsconfig.test.json): no errors');
else process.stderr.write(`typecheck:test (tsc -p tsconfig.test.json) failed:\n${types.out}`);
process.exit(types.code || tests.code);
