/**
 * Tests read the CLI's output as plain text. picocolors turns colour on when `CI`
 * is set, so CI runs would see escape codes: the CLI processes the tests spawn
 * inherit NO_COLOR from here.
 */
process.env.NO_COLOR = '1';
delete process.env.FORCE_COLOR;

/**
 * `hookwise claude-code` starts a resident hookwise after answering
 * (docs/claude-code.md#the-resident): tests that spawn it would leave residents
 * behind. They are off here; test/cli/resident.test.ts and the conformance suite's
 * resident host turn them on, in folders of their own, and stop them.
 */
process.env.HOOKWISE_RESIDENT = '0';

/**
 * The audit store keeps its own copy of each trail's head in the user's state
 * folder (src/audit/head-copy.ts). Tests, and the CLIs they spawn, keep theirs in
 * a folder of this run instead of the real ~/.local/state/hookwise.
 */
if (!process.env.HOOKWISE_STATE_DIR) {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  process.env.HOOKWISE_STATE_DIR = mkdtempSync(join(tmpdir(), 'hookwise-test-state-'));
}
