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

/**
 * Files that run each in a fresh process (`isolate: true`): they start residents,
 * servers, sandboxes and browsers, their CPU is in those children (a fresh fork adds
 * little), and the checkpoint tests fake the clock. Every other file shares its worker's
 * module graph with the files before it (`isolate: false`): a fresh fork and a fresh load
 * of src/ per file was half the CPU of the in-process files (16 of them: 51.8 against
 * 28.1 CPU-seconds). The leak check (test/setup/no-leaks.ts) still judges each file
 * alone: it counts only the timers made after that file's setup and the handles above
 * that file's own baseline, so a file is never blamed for the one before it.
 */
export const ISOLATED = [
  'test/cli/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/mcp-proxy/**/*.test.ts',
  'test/package/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/hosts/claude-mod.test.ts',
  'test/checkpoints/**/*.test.ts',
];

export default defineConfig({
  // The launcher's CommonJS modules are TypeScript too (src/cli/**/*.cts).
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    exclude: [...configDefaults.exclude, E2E],
    // The CPU meter first: hooks run in reverse, so its afterAll sees the other files' cleanup.
    setupFiles: [...(process.env.HOOKWISE_TEST_CPU_LOG ? ['test/setup/cpu-meter.ts'] : []), 'test/setup/env.ts', 'test/setup/no-leaks.ts'],
    testTimeout: Math.round(30_000 * slack),
    hookTimeout: Math.round(30_000 * slack),
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    pool: 'forks',
    maxWorkers: workers,
    env: { HOOKWISE_TEST_SLACK: slack.toFixed(2) },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      // Projects extend the root's arrays, so the root names no include of its own.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
