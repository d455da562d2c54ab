import path from 'node:path';
import { canonicalEvent, eventInfo } from '../compat/event-aliases.js';

/** Where a case runs: the project folder its policy judges (the guards' workspace). */
export interface HostScene {
  projectDir: string;
  sessionId?: string;
}

/**
 * The input as Claude Code sends it: the case's own fields over the ones Claude Code
 * always fills in (session_id, transcript_path, cwd, permission_mode, hook_event_name,
 * and a tool_use_id on tool events), so a policy that reads them sees what it would
 * see in a real session.
 */
export function hostInput(event: string, input: Record<string, unknown>, scene: HostScene, n: number): Record<string, unknown> {
  const name = canonicalEvent(event);
  const sessionId = scene.sessionId ?? 'policy-test';
  const filled: Record<string, unknown> = {
    session_id: sessionId,
    transcript_path: path.join(scene.projectDir, '.hookwise', 'policy-test', `${sessionId}.jsonl`),
    cwd: scene.projectDir,
    permission_mode: 'default',
    hook_event_name: name,
  };
  if (eventInfo(name).tool) filled.tool_use_id = `toolu_policy_test_${n}`;
  return { ...filled, ...input };
}
