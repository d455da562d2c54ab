import { configDefaults, defineConfig } from 'vitest/config';
import base, { E2E } from './vitest.config.js';

/** `npm run test:e2e`: the slow end-to-end files `npm test` leaves out (CONTRIBUTING.md, "Other suites"), each in a fresh process. */
export default defineConfig({
  ...base,
  test: { ...base.test, projects: undefined, isolate: true, include: [E2E], exclude: configDefaults.exclude },
});
