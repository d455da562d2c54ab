import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgentSession, type AgentSessionResult } from './agent-session.js';
import { removeWhenDone } from './scratch-folder.js';

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

/**
 * The demo's own audit database, never the project's (`.hookwise/audit.db`,
 * `$HOOKWISE_AUDIT_DB`): its rows are a script's, not anything an agent did here.
 */
export function demoAuditPath(cwd: string): string {
  return path.join(path.resolve(cwd), '.hookwise', 'demo', 'audit.db');
}

export async function runDemo(flags: { db?: string; workspace?: string; keepWorkspace?: boolean }): Promise<AgentSessionResult> {
  const { loadScript } = await import('../providers/scripted.js');
  // Resolved before the session moves into the workspace: `hookwise audit verify --db` run here finds it.
  const auditPath = path.resolve(flags.db ?? demoAuditPath(process.cwd()));
  const workspace = createDemoWorkspace(flags.workspace);
  // A scratch copy: gone when the demo ends, fails or is interrupted, unless asked to keep it.
  const remove = flags.keepWorkspace ? () => {} : removeWhenDone(workspace);
  try {
    return await runAgentSession({
      provider: loadScript(path.join(DEMO_DIR, 'session.yaml')),
      prompt: DEMO_PROMPT,
      workspace,
      workspaceRemoved: !flags.keepWorkspace,
      configFiles: [path.join(DEMO_DIR, 'hookwise.config.ts'), path.join(workspace, '.claude', 'settings.json')],
      auditPath,
      compaction: { maxMessages: 30 },
    });
  } finally {
    remove();
  }
}
