import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgentSession, type AgentSessionResult } from './agent-session.js';

/** The example the demo runs: a policy, a Claude Code settings file, a scripted session, a workspace template. */
export const DEMO_DIR = fileURLToPath(new URL('../../examples/demo/', import.meta.url));

export const DEMO_PROMPT = 'Fix the rounding bug in src/app.js (totals must be rounded to cents) and make sure the tests pass.';

/** A fresh copy of the demo project, with its `.claude` settings and hook scripts. */
export function createDemoWorkspace(parent?: string): string {
  const base = parent ? path.resolve(parent) : os.tmpdir();
  mkdirSync(base, { recursive: true });
  const workspace = mkdtempSync(path.join(base, 'hookwise-demo-'));
  cpSync(path.join(DEMO_DIR, 'workspace'), workspace, { recursive: true });
  cpSync(path.join(DEMO_DIR, 'claude'), path.join(workspace, '.claude'), { recursive: true });
  return workspace;
}

export async function runDemo(flags: { db?: string; workspace?: string }): Promise<AgentSessionResult> {
  const [{ defaultAuditPath }, { loadScript }] = await Promise.all([import('../audit/index.js'), import('../providers/scripted.js')]);
  // Resolved before the session moves into the workspace: `hookwise audit` run here finds it.
  const auditPath = path.resolve(flags.db ?? defaultAuditPath(process.cwd()));
  const workspace = createDemoWorkspace(flags.workspace);
  return runAgentSession({
    provider: loadScript(path.join(DEMO_DIR, 'session.yaml')),
    prompt: DEMO_PROMPT,
    workspace,
    configFiles: [path.join(DEMO_DIR, 'hookwise.config.ts'), path.join(workspace, '.claude', 'settings.json')],
    auditPath,
    compaction: { maxMessages: 30 },
  });
}
