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
 * as src/hosts, each row's refusal the host's own failure answer for an event not yet read.
 */
const { AGENTS } = createRequire(import.meta.url)(path.join(repoRoot, 'bin', 'agents.cjs')) as {
  AGENTS: Record<string, { unloaded: (line: string) => { stdout?: string; code: number } }>;
};

const root = mkdtempSync(path.join(tmpdir(), 'hookwise-hook-call-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the table of agents', () => {
  it('is the one src/hosts reads', () => {
    expect(Object.keys(AGENTS)).toEqual([...AGENT_NAMES]);
  });

  it.each(AGENT_NAMES)("%s: its row is the host's own failure answer for an unread event", (name) => {
    const reason = 'the install is broken';
    const host = hostNamed(name).failure(undefined, reason, false);
    const row = AGENTS[name]!.unloaded(`hookwise failed closed: ${reason}`);
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
