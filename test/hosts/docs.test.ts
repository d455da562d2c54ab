import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../cli/run-cli.js';

/** Every install command of docs/agents.md runs, and writes the file the page says. */
const DOC = readFileSync(path.join(repoRoot, 'docs', 'agents.md'), 'utf8');
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-agents-doc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const commands = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n'));
const WRITES: Record<string, (home: string, project: string) => string> = {
  codex: (home) => path.join(home, '.codex', 'hooks.json'),
  copilot: (_home, project) => path.join(project, '.github', 'hooks', 'hookwise.json'),
  droid: (home) => path.join(home, '.factory', 'hooks.json'),
  opencode: (_home, project) => path.join(project, '.opencode', 'plugins', 'hookwise.js'),
  'claude-code': (_home, project) => path.join(project, '.claude', 'settings.json'),
};

describe('docs/agents.md', () => {
  it('names one init per agent', () => {
    expect(commands).toEqual([
      'npx hookwise init codex',
      'npx hookwise init copilot',
      'npx hookwise init droid',
      'npx hookwise init opencode',
      'npx hookwise init claude-code',
    ]);
  });

  it.each(commands)('%s writes what the page says', async (command) => {
    const agent = command.split(' ').at(-1)!;
    const home = mkdtempSync(path.join(root, 'home-'));
    const project = mkdtempSync(path.join(root, 'project-'));
    const r = await runCli(command.split(' ').slice(2), { cwd: project, env: { HOME: home }, unset: ['CODEX_HOME'] });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(project, 'hookwise.config.ts'))).toBe(true);
    const entry =
      agent === 'claude-code' ? 'hookwise claude-code' : agent === 'opencode' ? `hookwise.js", 'opencode'` : `hookwise.js\\" ${agent}`;
    expect(readFileSync(WRITES[agent]!(home, project), 'utf8')).toContain(entry);
  });
});
