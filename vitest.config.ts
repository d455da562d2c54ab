import { availableParallelism, loadavg } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Most test files spend their time waiting on child processes (the CLI, residents,
 * agents), so a worker per core leaves cores idle while files wait: two workers per
 * core keep them busy. HOOKWISE_TEST_WORKERS overrides it (1 to debug a file alone).
 */
const cores = availableParallelism();
const workers = Number(process.env.HOOKWISE_TEST_WORKERS) || Math.max(2, cores * 2);

/**
 * Timeouts say how long a test may take on an idle machine; on a busy one each worker
 * gets a share of the cores, so every timeout is stretched by how oversubscribed the
 * machine is when the run starts (other processes' load plus these workers, per core),
 * at least 1x and at most 6x. Tests read the factor through `slack()` (test/support/slack.ts).
 */
const slack = Math.min(6, Math.max(1, (loadavg()[0] + workers) / cores / 2));

/** Files named *.e2e.test.ts are slow end-to-end runs of what a faster test proves in-suite: `npm run test:e2e`. */
export const E2E = 'test/**/*.e2e.test.ts';

export default defineConfig({
  // The launcher's CommonJS modules are TypeScript too (src/cli/**/*.cts).
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, E2E],
    setupFiles: ['test/setup/env.ts', 'test/setup/no-leaks.ts'],
    testTimeout: Math.round(30_000 * slack),
    hookTimeout: Math.round(30_000 * slack),
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    pool: 'forks',
    maxWorkers: workers,
    // Each file in a fresh module graph: with modules shared between files, a timer one
    // file left running was reported by the leak check of the next file in that worker
    // (a red run blaming a file that leaks nothing). Loading src/ again costs CPU, not failures.
    isolate: true,
    env: { HOOKWISE_TEST_SLACK: slack.toFixed(2) },
  },
});
