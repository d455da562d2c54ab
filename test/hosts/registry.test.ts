import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, HOSTS, hostNamed } from '../../src/hosts/index.js';
import { repoRoot } from '../cli/run-cli.js';
// @ts-expect-error the agents' suite is plain JavaScript, run by node alone
import { initArgs, AGENTS as SUITE } from '../agents/agents.mjs';

/**
 * A new agent is one folder and one row (ARCHITECTURE.md, "A new coding agent"): the
 * table of agents (bin/agents.cjs), the folders of src/hosts, the table in
 * ARCHITECTURE.md and the agents' suite name the same agents, and everything that lists
 * agents lists them from the table.
 */
const folders = readdirSync(path.join(repoRoot, 'src', 'hosts'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/** The rows of ARCHITECTURE.md's table of agents: [agent, folder]. */
function architectureRows(): string[][] {
  const text = readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
  const section = text.split(/^## /m).find((s) => s.startsWith('The agents\n'));
  if (!section) throw new Error('ARCHITECTURE.md: no "## The agents" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
}

describe('the table of agents', () => {
  it('has a folder in src/hosts for every row, and a row for every folder', () => {
    expect([...folders].sort()).toEqual([...AGENT_NAMES].sort());
  });

  it.each(AGENT_NAMES)("%s: its folder's host is the one of that name", (name) => {
    expect(HOSTS[name]!.name).toBe(name);
    expect(hostNamed(name)).toBe(HOSTS[name]);
  });

  it.each(AGENT_NAMES)('%s: its folder says how init wires it', async (name) => {
    const init = await hostNamed(name).init();
    expect(['hooks-files', 'files', 'claude-code']).toContain(init.kind);
  });

  it("is ARCHITECTURE.md's table of agents, row for row, each with its folder", () => {
    const rows = architectureRows();
    expect(rows.map(([agent]) => agent)).toEqual([...AGENT_NAMES]);
    for (const [agent, folder] of rows) expect(folder).toBe(`src/hosts/${agent}/`);
  });

  it("is what the agents' suite runs: every agent against its real CLI", () => {
    const wired = new Set(Object.keys(SUITE).map((entry) => (initArgs(entry) as string[])[0]));
    for (const name of AGENT_NAMES.filter((n) => n !== 'claude-code')) expect(wired).toContain(name);
    // Claude Code's settings hooks run against the real CLI in the differential suite; its mod here.
    expect(wired).toContain('claude-code');
  });

  it('is what the CLI lists: a command per agent, and the agents init wires', () => {
    const help = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), '--help'], { encoding: 'utf8' });
    const init = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), 'init', '--help'], {
      encoding: 'utf8',
    });
    for (const name of AGENT_NAMES) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
      expect(init.stdout).toContain(name);
    }
  });
});
