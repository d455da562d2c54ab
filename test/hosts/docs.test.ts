import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../cli/run-cli.js';

/** Every install command of docs/agents.md runs, and writes the file the page says. */
const DOC = readFileSync(path.join(repoRoot, 'docs', 'agents.md'), 'utf8');
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-agents-doc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split('\n'));
const commands = lines.filter((line) => line.startsWith('npx hookwise init '));
/** What each init writes, and a line the file must hold. */
const WRITES: Record<string, { file: (home: string, project: string) => string; holds: string }> = {
  codex: { file: (home) => path.join(home, '.codex', 'hooks.json'), holds: 'node \\"$b\\" codex' },
  copilot: { file: (home) => path.join(home, '.copilot', 'hooks', 'hookwise.json'), holds: 'node \\"$b\\" copilot' },
  droid: { file: (home) => path.join(home, '.factory', 'hooks.json'), holds: 'node \\"$b\\" droid' },
  cline: { file: (_home, project) => path.join(project, '.clinerules', 'hooks', 'PreToolUse'), holds: 'node "$b" cline' },
  gemini: { file: (home) => path.join(home, '.gemini', 'settings.json'), holds: 'node \\"$b\\" gemini' },
  opencode: { file: (_home, project) => path.join(project, '.opencode', 'plugins', 'hookwise.js'), holds: `[bin, 'opencode']` },
  'claude-code': { file: (_home, project) => path.join(project, '.claude', 'settings.json'), holds: 'hookwise claude-code' },
  'claude-code --mod': {
    file: (_home, project) => path.join(project, '.claude', 'hookwise-mod', 'hooks', 'register.js'),
    holds: 'classic.',
  },
};

describe('docs/agents.md', () => {
  it('names one init per agent', () => {
    expect(commands.map((c) => c.slice('npx hookwise init '.length)).sort()).toEqual(Object.keys(WRITES).sort());
  });

  it.each(commands)('%s writes what the page says', async (command) => {
    const target = WRITES[command.slice('npx hookwise init '.length)]!;
    const home = mkdtempSync(path.join(root, 'home-'));
    const project = mkdtempSync(path.join(root, 'project-'));
    const r = await runCli(command.split(' ').slice(2), { cwd: project, env: { HOME: home }, unset: ['CODEX_HOME', 'COPILOT_HOME'] });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(project, 'hookwise.config.ts'))).toBe(true);
    expect(readFileSync(target.file(home, project), 'utf8')).toContain(target.holds);
  });
});
