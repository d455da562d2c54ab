// The crash probe: a durable writer (test/fixtures/audit/writer.mjs) SIGKILLed after
// a random number of commits, N times (default 50), each into a fresh trail. Every
// trail must verify clean (the last record whole or absent) and hold every record the
// writer was told was committed; a trail that reads as tampered is a false alarm.
// test/audit/crash.test.ts runs 10 of these; this is the probe of issue 39.
// Run: npm run build && node bench/audit-crash.mjs [N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyAudit } from '../dist/audit/index.js';

const WRITER = fileURLToPath(new URL('../test/fixtures/audit/writer.mjs', import.meta.url));
const KEY = 'crash-probe-key-0123456789abcdef';

/** Starts a durable writer and kills it once it has printed `after` commits; resolves to the last count it printed. */
function killAfter(db, env, after) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, db, '1000000', '0', 'durable'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let committed = 0;
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) if (/^\d+$/.test(line)) committed = Number(line);
      if (committed >= after) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(committed) : reject(new Error(`the writer ended by itself (${signal})`)),
    );
  });
}

const runs = Number(process.argv[2] ?? 50);
const tally = new Map();
for (let k = 0; k < runs; k++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-crash-'));
  try {
    const env = { HOOKWISE_AUDIT_KEY: KEY, HOOKWISE_STATE_DIR: path.join(dir, 'state') };
    const db = path.join(dir, 'audit.db');
    const committed = await killAfter(db, env, 10 + Math.floor(Math.random() * 200));
    const result = verifyAudit(db, { key: KEY, stateDir: env.HOOKWISE_STATE_DIR });
    const outcome = !result.ok
      ? `problems: ${result.problems.map((p) => `${p.kind} (${p.message})`).join('; ')}`
      : result.rows < committed
        ? `${committed - result.rows} acknowledged records missing`
        : 'verifies';
    tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const [outcome, n] of tally) console.log(`${String(n).padStart(3)} / ${runs}  ${outcome}`);
process.exitCode = tally.size === 1 && tally.has('verifies') ? 0 : 1;
