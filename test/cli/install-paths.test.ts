import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runNode } from './run-cli.js';

/**
 * Configs load wherever hookwise runs (docs/claude-code.md#install-paths): a project
 * that does not install hookwise (`npx hookwise claude-code`), a linked install
 * (`npm link`, `pnpm link`) and a workspace. Each config imports 'hookwise' and
 * 'hookwise/guards' and uses shellGuard() and pathGuard(), whose picomatch once
 * failed to load from a linked copy.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GUARDS_MJS = `import { defineConfig } from 'hookwise';
import { shellGuard, pathGuard } from 'hookwise/guards';
export default defineConfig({ hooks: [shellGuard(), pathGuard()] });
`;
const GUARDS_TS = `import { defineConfig, type HookSpec } from 'hookwise';
import { shellGuard, pathGuard } from 'hookwise/guards';
const hooks: HookSpec[] = [shellGuard(), pathGuard()];
export default defineConfig({ hooks });
`;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** `hookwise claude-code` started through `bin`, its stdin a pipe (as Claude Code starts it). */
function claudeCode(bin: string, project: string, command: string) {
  return runNode([bin, 'claude-code'], {
    cwd: project,
    stdin: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: project, tool_name: 'Bash', tool_input: { command } }),
    env: { CLAUDE_PROJECT_DIR: project, HOOKWISE_CLAUDE_CODE: '', HOOKWISE_NO_CACHE: undefined },
    unset: ['HOOKWISE_NO_CACHE'],
  });
}

async function expectGuarded(bin: string, project: string): Promise<void> {
  const denied = await claudeCode(bin, project, 'rm -rf /etc');
  expect(denied.stderr).toBe('');
  expect(denied.code).toBe(0);
  expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({
    permissionDecision: 'deny',
    permissionDecisionReason: expect.stringContaining('/etc'),
  });
  const allowed = await claudeCode(bin, project, 'git status');
  expect([allowed.code, allowed.stderr]).toEqual([0, '']);
  expect(allowed.stdout === '' || JSON.parse(allowed.stdout).hookSpecificOutput?.permissionDecision !== 'deny').toBe(true);
}

const ownBin = path.join(repoRoot, 'bin', 'hookwise.js');

describe('a project that does not install hookwise (npx hookwise claude-code)', () => {
  it.each([
    ['hookwise.config.mjs', GUARDS_MJS],
    ['hookwise.config.ts', GUARDS_TS],
  ])('%s importing hookwise resolves to the running hookwise', async (name, text) => {
    const project = mkdtempSync(path.join(root, 'bare-'));
    write(path.join(project, name), text);
    await expectGuarded(ownBin, project);
  });
});

describe('linked and workspace installs load the guards', () => {
  it('npm link: node_modules/hookwise is a symlink to the package, started through the link', async () => {
    const project = mkdtempSync(path.join(root, 'linked-'));
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(repoRoot, path.join(project, 'node_modules', 'hookwise'), 'dir');
    write(path.join(project, 'hookwise.config.mjs'), GUARDS_MJS);
    await expectGuarded(path.join(project, 'node_modules', 'hookwise', 'bin', 'hookwise.js'), project);
    // The same project, started by a hookwise elsewhere (a global install): the config's own copy loads.
    await expectGuarded(ownBin, project);
  });

  it('a workspace: the package linked at the root, the config in a member package', async () => {
    const workspace = mkdtempSync(path.join(root, 'workspace-'));
    write(path.join(workspace, 'package.json'), JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'] }));
    mkdirSync(path.join(workspace, 'node_modules'));
    symlinkSync(repoRoot, path.join(workspace, 'node_modules', 'hookwise'), 'dir');
    const member = path.join(workspace, 'packages', 'app');
    write(path.join(member, 'package.json'), JSON.stringify({ name: 'app', type: 'module' }));
    write(path.join(member, 'hookwise.config.ts'), GUARDS_TS);
    await expectGuarded(path.join(workspace, 'node_modules', 'hookwise', 'bin', 'hookwise.js'), member);
  });
});

/**
 * hookwise copied into the project's node_modules, as `npm install` puts it: the next
 * hook call runs that copy, so the agent may not write it, with the host's own file tools
 * (which the OS sandbox does not hold) or with a command (docs/security.md).
 */
describe('a copy installed in the project', () => {
  function installCopy(project: string): string {
    const copy = path.join(project, 'node_modules', 'hookwise');
    for (const part of ['bin', 'dist', 'vendor', 'package.json'])
      cpSync(path.join(repoRoot, part), path.join(copy, part), { recursive: true });
    const deps = Object.keys(
      (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    );
    for (const dep of deps) {
      mkdirSync(path.dirname(path.join(project, 'node_modules', dep)), { recursive: true });
      symlinkSync(path.join(repoRoot, 'node_modules', dep), path.join(project, 'node_modules', dep), 'dir');
    }
    return path.join(copy, 'bin', 'hookwise.js');
  }

  const call = (bin: string, project: string, tool_name: string, tool_input: object) =>
    runNode([bin, 'claude-code', '--no-resident'], {
      cwd: project,
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: project, tool_name, tool_input }),
      env: { CLAUDE_PROJECT_DIR: project, HOOKWISE_CLAUDE_CODE: '' },
    });
  const decision = (out: string) => (out === '' ? undefined : JSON.parse(out).hookSpecificOutput);

  it("refuses a Write or an Edit into it and a command that writes it, saying it is hookwise's own install", async () => {
    const project = mkdtempSync(path.join(root, 'copy-'));
    const bin = installCopy(project);
    write(path.join(project, 'hookwise.config.mjs'), GUARDS_MJS);
    const own = path.join(project, 'node_modules', 'hookwise', 'bin', 'hookwise.js');
    const why = `hookwise's own install, which the next hook call runs: ${path.join(project, 'node_modules', 'hookwise')}`;
    for (const [tool, input] of [
      ['Write', { file_path: own, content: 'process.exit(0)' }],
      ['Edit', { file_path: own, old_string: 'import', new_string: 'process.exit(0); import' }],
      ['Bash', { command: `echo 'process.exit(0)' > ${own}` }],
    ] as const) {
      const r = await call(bin, project, tool, input);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(decision(r.stdout), tool).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining(why),
      });
    }
    // Control: the project's own files are written as before.
    const other = await call(bin, project, 'Write', { file_path: path.join(project, 'src', 'app.js'), content: 'x' });
    expect(decision(other.stdout)?.permissionDecision).not.toBe('deny');
    expect(readFileSync(own, 'utf8')).toBe(readFileSync(path.join(repoRoot, 'bin', 'hookwise.js'), 'utf8'));
  });
});
