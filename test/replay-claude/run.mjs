#!/usr/bin/env node
/**
 * `npm run test:replay-claude`: real Claude Code 2.1.197 (headless, the differential
 * suite's mock model) runs a session with hookwise's drop-in as its PreToolUse hook
 * under POLICY_V1; then `hookwise replay` (the built CLI) replays the transcript Claude
 * Code wrote and hookwise's audit trail of the session:
 * - under POLICY_V1 (unchanged): 0 differences, exit 0;
 * - under POLICY_V2 (`rm` allowed, `touch` refused): exactly call 1 (would have allowed)
 *   and call 2 (would have refused), exit 1; and no tool runs (victim.txt stays).
 * With --write-fixture it also copies the transcript to test/fixtures/replay/, which
 * test/replay/claude-transcript.test.ts replays in the ordinary suite.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../differential/harness.mjs';
import { CALLS, POLICY_V1, POLICY_V2, recordSession, replayJson } from './session.mjs';

const session = await recordSession();
let failed = 0;
const check = (ok, what) => {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${what}\n`);
  if (!ok) failed++;
};
try {
  writeFileSync(path.join(session.dir, 'v1.mjs'), POLICY_V1);
  writeFileSync(path.join(session.dir, 'v2.mjs'), POLICY_V2);
  check(
    existsSync(path.join(session.project, 'victim.txt')),
    'Claude Code ran the session and the drop-in refused rm (victim.txt is there)',
  );
  for (const [label, source] of [
    ['transcript', session.transcript],
    ['audit trail', session.audit],
  ]) {
    const same = replayJson(session, source, 'v1.mjs');
    check(same.status === 0 && same.lines.length === 0, `${label}, unchanged policy: 0 differences (exit ${same.status})`);
    const changed = replayJson(session, source, 'v2.mjs');
    const got = changed.lines.map((l) => [l.input.command, l.change]);
    const want = [
      [CALLS[1].input.command, 'would have allowed'],
      [CALLS[2].input.command, 'would have refused'],
    ];
    check(
      changed.status === 1 && JSON.stringify(got) === JSON.stringify(want),
      `${label}, changed policy: exactly ${JSON.stringify(want)} (got ${JSON.stringify(got)})`,
    );
  }
  check(
    existsSync(path.join(session.project, 'victim.txt')),
    'replay ran no tool (victim.txt is still there after replaying rm as allowed)',
  );
  if (process.argv.includes('--write-fixture')) {
    const dir = path.join(repoRoot, 'test', 'fixtures', 'replay');
    mkdirSync(dir, { recursive: true });
    copyFileSync(session.transcript, path.join(dir, 'claude-code-2.1.197-session.jsonl'));
    process.stdout.write(`wrote ${path.join(dir, 'claude-code-2.1.197-session.jsonl')}\n`);
  }
} finally {
  rmSync(session.dir, { recursive: true, force: true });
}
process.stdout.write(
  failed ? `\n${failed} checks failed\n` : '\nreplay reproduces the real session and finds exactly the changed decisions\n',
);
process.exitCode = failed ? 1 : 0;
