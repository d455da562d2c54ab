import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The launcher's CommonJS modules are TypeScript too (src/cli/**/*.cts).
  oxc: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/env.ts', 'test/setup/no-leaks.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Unhandled rejections and errors fail the run (vitest's default; kept explicit).
    dangerouslyIgnoreUnhandledErrors: false,
    pool: 'forks',
  },
});
