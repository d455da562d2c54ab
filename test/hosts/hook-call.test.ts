import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, hostNamed } from '../../src/hosts/index.js';
import { repoRoot } from '../cli/run-cli.js';

/**
 * The one table of agents (bin/agents.cjs) that bin/hookwise.js reads: the same agents
 * as src/hosts, each row the host's own failure answer for an event not yet read.
 */
const { UNLOADED_FAILURE, AGENT_COMMANDS } = createRequire(import.meta.url)(path.join(repoRoot, 'bin', 'agents.cjs')) as {
  UNLOADED_FAILURE: Record<string, (line: string) => { stdout?: string; code: number }>;
  AGENT_COMMANDS: string[];
};

const root = mkdtempSync(path.join(tmpdir(), 'hookwise-hook-call-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the table of agents', () => {
  it('names every host of src/hosts, and nothing else', () => {
    expect(Object.keys(UNLOADED_FAILURE).sort()).toEqual([...AGENT_NAMES].sort());
    expect(AGENT_COMMANDS).toEqual(AGENT_NAMES.filter((n) => n !== 'claude-code'));
  });

  it.each(AGENT_NAMES)("%s: its row is the host's own failure answer for an unread event", (name) => {
    const reason = 'the install is broken';
    const host = hostNamed(name).failure(undefined, reason, false);
    const row = UNLOADED_FAILURE[name]!(`hookwise failed closed: ${reason}`);
    expect(row).toEqual({ ...(host.stdout && { stdout: host.stdout }), code: host.code });
  });
});

describe('bin/hookwise.js with a hookwise that cannot load', () => {
  // A copy of the launcher with no build beside it: every call fails as a broken install does.
  const install = path.join(root, 'broken');
  mkdirSync(path.join(install, 'bin'), { recursive: true });
  for (const f of ['hookwise.js', 'agents.cjs', 'package.json']) copyFileSync(path.join(repoRoot, 'bin', f), path.join(install, 'bin', f));

  it.each(AGENT_NAMES)('%s: refused in its own form', (name) => {
    const r = spawnSync(process.execPath, [path.join(install, 'bin', 'hookwise.js'), name], {
      input: '{}',
      encoding: 'utf8',
      env: { ...process.env, HOOKWISE_FAIL_OPEN: '' },
    });
    const line = r.stderr.trim();
    expect(line).toMatch(/^hookwise failed closed: Cannot find module/);
    const host = hostNamed(name).failure(undefined, line.slice('hookwise failed closed: '.length), false);
    expect(r.status).toBe(host.code);
    expect(r.stdout).toBe(host.stdout ?? '');
  });
});
