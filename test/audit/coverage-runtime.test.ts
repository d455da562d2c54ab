import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { tempDir } from './helpers.js';
import { slack } from '../support/slack.js';

// The runtime's own tool records carry the tool_use_id its PreToolUse fire carried:
// a whole `hookwise demo` session is covered (built CLI: `npm run build` first).

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe('hookwise audit coverage on a runtime session', () => {
  it('finds every tool the runtime ran allowed by a PreToolUse outcome', { timeout: slack(120_000) }, async () => {
    const db = path.join(dir, 'audit.db');
    const demo = await runCli(['demo', '--db', db], { cwd: dir, unset: ['HOOKWISE_AUDIT_DB'] });
    expect(demo.code).toBe(0);
    const coverage = await runCli(['audit', 'coverage', '--db', db, '--json'], { cwd: dir });
    expect(coverage.code).toBe(0);
    const result = JSON.parse(coverage.stdout) as { executions: number; covered: number; uncovered: unknown[] };
    expect(result.executions).toBeGreaterThan(0);
    expect(result.covered).toBe(result.executions);
    expect(result.uncovered).toEqual([]);
  });
});
