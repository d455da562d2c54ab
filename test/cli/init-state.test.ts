/**
 * Issue 23: hookwise's own state out of the agent's reach. `hookwise init --state
 * user` (built CLI, spawned, with HOME and XDG_STATE_HOME in a temp folder) puts
 * the project's audit trail, its anchor and key in the user's state folder, not
 * in the workspace; every command finds it there; and the shell and path guards
 * refuse to write it even when the home folder is allowed, each attack first run
 * for real on an unprotected copy.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectStateDir } from '../../src/audit/paths.js';
import { repoRoot, runCli } from './run-cli.js';
import { slack } from '../support/slack.js';

let root: string;
let home: string;
let proj: string;
let env: Record<string, string>;
let folder: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(repoRoot, 'dist/guards/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-init-state-')));
  home = path.join(root, 'home');
  proj = path.join(root, 'proj');
  fs.mkdirSync(home);
  fs.mkdirSync(path.join(proj, '.git'), { recursive: true });
  // The state folder where XDG_STATE_HOME says, outside the home folder: the guards find it there too.
  env = { HOME: home, XDG_STATE_HOME: path.join(root, 'data', 'state') };
  folder = projectStateDir(proj, env);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const UNSET = ['HOOKWISE_STATE_DIR', 'HOOKWISE_AUDIT_DB', 'HOOKWISE_AUDIT_KEY', 'HOOKWISE_AUDIT_KEY_FILE'];
const hookwise = (args: string[], options: { cwd?: string; stdin?: string } = {}) =>
  runCli(args, { cwd: options.cwd ?? proj, env, stdin: options.stdin, unset: UNSET });

describe('hookwise init --state user', () => {
  it(
    "creates the trail, its anchor and key in the user's state folder, and every command finds it there",
    async () => {
      const init = await hookwise(['init', '--state', 'user']);
      expect(init.code, init.stderr).toBe(0);
      expect(folder.startsWith(path.join(root, 'data', 'state', 'hookwise', 'projects', 'proj-'))).toBe(true);
      expect(init.stdout).toContain(`wrote    ${folder}: this project's audit trail, approvals and key, outside the workspace`);
      expect(init.stdout).not.toContain('init --state user` keeps them');
      for (const name of ['project.json', 'audit.db', 'audit.db.head', 'audit.key'])
        expect(fs.existsSync(path.join(folder, name)), name).toBe(true);
      expect(fs.statSync(path.join(folder, 'audit.key')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
      expect(JSON.parse(fs.readFileSync(path.join(folder, 'project.json'), 'utf8'))).toMatchObject({ workspace: proj });
      // Nothing of it in the workspace.
      expect(fs.existsSync(path.join(proj, '.hookwise', 'audit.db'))).toBe(false);
      expect(fs.existsSync(path.join(proj, '.hookwise', 'audit.key'))).toBe(false);

      const verify = await hookwise(['audit', 'verify']);
      expect(verify).toMatchObject({ code: 0 });
      expect(verify.stdout).toMatch(
        new RegExp(`^ok: 1 row, chain intact \\(${path.join(folder, 'audit.db').replace(/[.]/g, '\\.')}, head [0-9a-f]{16}\\)\\n$`),
      );
      const [first] = JSON.parse((await hookwise(['audit', '--json'])).stdout) as Array<{ kind: string; data: Record<string, unknown> }>;
      expect(first).toMatchObject({ kind: 'init', data: { state: 'user', workspace: proj } });

      // A second init keeps the trail as it is.
      const again = await hookwise(['init', '--state', 'user']);
      expect(again.stdout).toContain(`kept     ${folder}`);
      expect((await hookwise(['audit', 'verify'])).stdout).toMatch(/^ok: 1 row, chain intact/);
      expect((await hookwise(['init', '--state', 'elsewhere'])).stderr).toContain('init: --state must be project or user, got "elsewhere"');
    },
    slack(120_000),
  );

  it(
    'a project left with .hookwise/ is offered the user state folder',
    async () => {
      const other = path.join(root, 'other');
      fs.mkdirSync(other);
      const init = await hookwise(['init'], { cwd: other });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain(
        "note     the audit trail, approvals and key go to .hookwise/ in this project; `npx hookwise init --state user` keeps them in your state folder, outside the agent's reach",
      );
      expect(fs.existsSync(path.join(projectStateDir(other, env), 'project.json'))).toBe(false);
    },
    slack(60_000),
  );
});

describe('the guards protect the state folder, even inside a folder that may be written', () => {
  let config: string;
  beforeAll(() => {
    config = path.join(root, 'guards.config.mjs');
    const guards = pathToFileURL(path.join(repoRoot, 'dist/guards/index.js')).href;
    // The folder holding the state folder is an allowed write root here: the state folder must still be refused.
    const options = JSON.stringify({ home, allowWrite: [home, path.join(root, 'data')] });
    fs.writeFileSync(
      config,
      `import { shellGuard, pathGuard } from ${JSON.stringify(guards)};\nexport default { hooks: [shellGuard(${options}), pathGuard(${options})] };\n`,
    );
  });

  const snapshot = () =>
    Object.fromEntries(
      fs
        .readdirSync(folder)
        .sort()
        .map((name) => [name, fs.readFileSync(path.join(folder, name)).toString('base64')]),
    );

  async function fire(input: Record<string, unknown>): Promise<{ decision: string | null; reason?: string }> {
    const r = await hookwise(['fire', 'PreToolUse', '--config', config], {
      stdin: JSON.stringify({ session_id: 's', cwd: proj, ...input }),
    });
    expect([0, 2], r.stderr).toContain(r.code);
    return JSON.parse(r.stdout) as { decision: string | null; reason?: string };
  }

  /** The attack run for real with bash on a copy of the state folder, where nothing guards it. */
  function damages(command: (copy: string) => string, gone: (copy: string) => boolean): void {
    const copy = path.join(root, 'unprotected-state');
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(folder, copy, { recursive: true });
    execFileSync('bash', ['-c', command(copy)], { cwd: proj, stdio: 'pipe' });
    expect(gone(copy)).toBe(true);
  }

  it(
    'refuses rm -rf of the state folder, a redirection over its anchor, and a Write to its database',
    async () => {
      const before = snapshot();

      damages(
        (copy) => `rm -rf ${copy}`,
        (copy) => !fs.existsSync(copy),
      );
      const rm = await fire({ tool_name: 'Bash', tool_input: { command: `rm -rf ${folder}` } });
      expect(rm.decision).toBe('deny');
      expect(rm.reason).toMatch(/hookwise's own state/);

      damages(
        (copy) => `echo x > ${copy}/audit.db.head`,
        (copy) => fs.readFileSync(path.join(copy, 'audit.db.head'), 'utf8') === 'x\n',
      );
      const redirect = await fire({ tool_name: 'Bash', tool_input: { command: `echo x > ${folder}/audit.db.head` } });
      expect(redirect.decision).toBe('deny');
      expect(redirect.reason).toMatch(/hookwise's own state/);

      const write = await fire({ tool_name: 'Write', tool_input: { file_path: path.join(folder, 'audit.db'), content: 'x' } });
      expect(write.decision).toBe('deny');
      expect(write.reason).toMatch(/hookwise's own state/);

      // A folder that holds it is refused too.
      const parent = await fire({ tool_name: 'Bash', tool_input: { command: `rm -rf ${path.join(root, 'data')}` } });
      expect(parent.decision).toBe('deny');
      expect(parent.reason).toMatch(/hookwise's own state/);

      // Elsewhere in the allowed folder, writing is fine: the refusal is the state folder's.
      const fine = await fire({ tool_name: 'Write', tool_input: { file_path: path.join(root, 'data', 'notes.txt'), content: 'x' } });
      expect(fine.decision).not.toBe('deny');

      expect(snapshot()).toEqual(before);
      expect((await hookwise(['audit', 'verify'])).code).toBe(0);
    },
    slack(120_000),
  );
});
