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

/**
 * Residents and the network proxy's daemon listen in HOOKWISE_RESIDENT_DIR: a folder of
 * this run, not the user's `<tmp>/hookwise-<uid>`, so a test never talks to a daemon that
 * another run (or the user) started. A proxy daemon a test starts ends 10 s after its
 * last use, not 30 min: none outlives the run for long.
 */
if (!process.env.HOOKWISE_RESIDENT_DIR) {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  // Short: a Unix socket path has at most 108 bytes. mkdtemp makes it 700, as a residents folder must be.
  process.env.HOOKWISE_RESIDENT_DIR = mkdtempSync(join(tmpdir(), 'hw-run-'));
}
process.env.HOOKWISE_NET_PROXY_IDLE_MS ??= '10000';

/**
 * The config tests' settings files name their fixture scripts through $FIXTURES. Set
 * here, before each file, not in test/config/helpers.ts: in the `shared` project a helper
 * module is loaded once per worker, and the restore below would leave later files without it.
 */
const { fileURLToPath } = await import('node:url');
process.env.FIXTURES = fileURLToPath(new URL('../fixtures/claude/scripts', import.meta.url));

/**
 * Files in the `shared` project run one after another in one process (vitest.config.ts):
 * whatever environment variable or working folder a file leaves changed is put back
 * when it ends, so the CLIs and residents the next file spawns inherit none of it.
 */
const { afterAll } = await import('vitest');
const envAtStart = { ...process.env };
const cwdAtStart = process.cwd();
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in envAtStart)) delete process.env[name];
  for (const [name, value] of Object.entries(envAtStart)) if (process.env[name] !== value) process.env[name] = value;
  if (process.cwd() !== cwdAtStart) process.chdir(cwdAtStart);
});
