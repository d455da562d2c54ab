/**
 * A timeout stretched by how busy the machine is (vitest.config.ts sets the factor from
 * the load when the run starts): a test's own limit says what an idle machine needs.
 */
export function slack(ms: number): number {
  const factor = Number(process.env.HOOKWISE_TEST_SLACK);
  return Math.round(ms * (Number.isFinite(factor) && factor >= 1 ? factor : 1));
}
