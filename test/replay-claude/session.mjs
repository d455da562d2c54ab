import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claudeBinary, repoRoot } from '../differential/harness.mjs';
import { startMockAnthropic } from '../differential/mock-anthropic.mjs';

/**
 * One real Claude Code session (headless, against the differential suite's mock of the
 * Messages API) with hookwise's drop-in as its PreToolUse hook, kept for replay: the
 * transcript Claude Code writes under its config folder and hookwise's audit trail.
 *
 * The policy (POLICY_V1) refuses `rm`; the changed policy (POLICY_V2) lets `rm` through
 * and refuses `touch`. The calls are chosen so that exactly calls 1 and 2 change.
 */
export const POLICY_V1 = `export default { hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\b' },
    handler: () => ({ result: 'deny', decision: 'deny', reason: 'REFUSED-rm: no deleting here' }) },
  { name: 'log-reads', events: 'PreToolUse', matcher: 'Read', handler: () => undefined },
] };
`;
export const POLICY_V2 = `export default { hooks: [
  { name: 'no-touch', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\btouch\\\\b' },
    handler: () => ({ result: 'deny', decision: 'deny', reason: 'REFUSED-touch: no new files' }) },
  { name: 'log-reads', events: 'PreToolUse', matcher: 'Read', handler: () => undefined },
] };
`;

/** The calls the mock model makes, in order. */
export const CALLS = [
  { name: 'Bash', input: { command: 'echo m0 >> ran.log', description: 'step 0' } },
  { name: 'Bash', input: { command: 'rm -f victim.txt', description: 'step 1' } },
  { name: 'Bash', input: { command: 'touch made.txt', description: 'step 2' } },
  { name: 'Read', input: { file_path: 'README.md' } },
];

/**
 * Runs the session in a new folder (under `policy`, the mock model making `calls`); returns the project folder, the transcript file
 * and the audit database. The folder is the caller's to remove.
 */
export async function recordSession({ policy = POLICY_V1, calls = CALLS } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-replay-cc-'));
  const project = path.join(dir, 'project');
  const config = path.join(dir, 'claude-config');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(config);
  writeFileSync(path.join(project, 'victim.txt'), 'sentinel\n');
  writeFileSync(path.join(project, 'README.md'), '# project\n');
  writeFileSync(path.join(project, 'hookwise.config.mjs'), policy);
  const hook = `node "${path.join(repoRoot, 'bin', 'hookwise.js')}" claude-code --config "$CLAUDE_PROJECT_DIR/hookwise.config.mjs"`;
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: hook }] }] } }, null, 2),
  );
  const mock = await startMockAnthropic();
  try {
    const prompt = `Do it.\nSCRIPT: ${JSON.stringify(calls)}`;
    const child = spawn(
      claudeBinary(),
      ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--max-turns', '10'],
      {
        cwd: project,
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          CLAUDE_CONFIG_DIR: config,
          ANTHROPIC_BASE_URL: mock.url,
          ANTHROPIC_API_KEY: 'sk-ant-test',
          IS_SANDBOX: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents'),
          HOOKWISE_AUDIT_DB: '.hookwise/audit.db',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    if (code !== 0) throw new Error(`Claude Code exited ${code}: ${err.slice(-1000)}`);
  } finally {
    await mock.close();
    spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), 'residents', '--stop', '--all'], {
      env: { ...process.env, HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents') },
    });
  }
  return { dir, project, transcript: findTranscript(path.join(config, 'projects')), audit: path.join(project, '.hookwise', 'audit.db') };
}

/** The one session transcript Claude Code wrote under `<config>/projects/<project slug>/`. */
function findTranscript(projects) {
  const found = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) found.push(p);
    }
  };
  walk(projects);
  const main = found.filter((f) => readFileSync(f, 'utf8').includes('SCRIPT: '));
  if (main.length !== 1) throw new Error(`expected one session transcript under ${projects}, found ${found.join(', ') || 'none'}`);
  return main[0];
}

/** `hookwise replay <source> --json --config <policy>` of a recorded session, judged in its project: exit status and differences. */
export function replayJson(session, source, policy) {
  const r = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'bin', 'hookwise.js'), 'replay', source, '--json', '--config', policy, '--project', session.project],
    {
      cwd: session.dir,
      encoding: 'utf8',
    },
  );
  return {
    status: r.status,
    lines: r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr: r.stderr,
  };
}
