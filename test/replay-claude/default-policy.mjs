#!/usr/bin/env node
/**
 * `npm run build && node test/replay-claude/default-policy.mjs`: real Claude Code
 * 2.1.197 (headless, the differential suite's mock model) runs a session under the
 * default policy (the starter config's guards: the shell guard with its OS sandbox on,
 * the path and secret guards), hookwise's drop-in as its PreToolUse hook recording the
 * audit trail. Each allowed Bash call runs as the sandbox's `bwrap` line; the trail
 * must keep the agent's commands, and `hookwise replay` of it must give:
 * - the default policy, unchanged: 0 differences, exit 0;
 * - the default policy and a hook refusing `ls`: exactly the two `ls` calls, exit 1.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../differential/harness.mjs';
import { queryAudit } from '../../dist/audit/index.js';
import { recordSession, replayJson } from './session.mjs';

const dist = (p) => pathToFileURL(path.join(repoRoot, 'dist', p)).href;
const GUARDS = `import { defineConfig } from '${dist('index.js')}';
import { pathGuard, secretGuard, shellGuard } from '${dist('guards/index.js')}';
export default defineConfig({ hooks: [shellGuard(), pathGuard(), secretGuard({ mode: 'block' })`;
const DEFAULT = `${GUARDS}] });\n`;
const NO_LS = `${GUARDS}, { name: 'no-ls', events: 'PreToolUse', matcher: { tool: 'Bash', command: '^ls\\\\b' }, handler: () => ({ decision: 'deny', reason: 'no ls' }) }] });\n`;
const CALLS = [
  { name: 'Bash', input: { command: 'ls', description: 'list' } },
  { name: 'Bash', input: { command: 'echo m0 >> ran.log', description: 'append' } },
  { name: 'Bash', input: { command: 'ls -la', description: 'list all' } },
  { name: 'Bash', input: { command: 'cat README.md', description: 'read' } },
  { name: 'Read', input: { file_path: 'README.md' } },
];

const session = await recordSession({ policy: DEFAULT, calls: CALLS });
let failed = 0;
const check = (ok, what) => {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  ${what}\n`);
  if (!ok) failed++;
};
try {
  writeFileSync(path.join(session.dir, 'default.mjs'), DEFAULT);
  writeFileSync(path.join(session.dir, 'no-ls.mjs'), NO_LS);
  const rows = queryAudit(session.audit, { kind: 'outcome', event: 'PreToolUse' });
  const commands = rows.map((r) => r.data.input?.tool_input?.command).filter(Boolean);
  const wrapped = rows.filter((r) => typeof r.data.updatedInput?.command === 'string' && r.data.updatedInput.command.includes('bwrap'));
  check(
    JSON.stringify(commands) === JSON.stringify(CALLS.filter((c) => c.name === 'Bash').map((c) => c.input.command)),
    `the trail holds the agent's commands (${JSON.stringify(commands)})`,
  );
  check(wrapped.length > 0, `the sandbox's line is beside them (${wrapped.length} Bash calls ran sandboxed)`);
  const same = replayJson(session, session.audit, 'default.mjs');
  check(
    same.status === 0 && same.lines.length === 0,
    `default policy, unchanged: 0 differences (exit ${same.status}) ${same.stderr.trim()}`,
  );
  const changed = replayJson(session, session.audit, 'no-ls.mjs');
  const got = changed.lines.map((l) => [l.input.command, l.change]);
  const want = [
    ['ls', 'would have refused'],
    ['ls -la', 'would have refused'],
  ];
  check(
    changed.status === 1 && JSON.stringify(got) === JSON.stringify(want),
    `deny ls: exactly ${JSON.stringify(want)} (got ${JSON.stringify(got)})`,
  );
} finally {
  rmSync(session.dir, { recursive: true, force: true });
}
process.stdout.write(
  failed
    ? `\n${failed} checks failed\n`
    : '\nreplay of a real sandboxed session: 0 differences unchanged, exactly the changed calls after a change\n',
);
process.exitCode = failed ? 1 : 0;
