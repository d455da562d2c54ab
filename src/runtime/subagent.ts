import { blockedBy } from './hook-gateway.js';
import { runAgentLoop } from './loop.js';
import { stopFields } from './continuation.js';
import { RunContext, type Halt, stopHalt } from './run-context.js';
import type { SubagentRequest, SubagentResult } from './tool.js';

/**
 * Run a child agent: same session, engine and provider, its own agent_id,
 * agent_type, messages and transcript file. SubagentStart may refuse it;
 * SubagentStop is its continuation criterion (see continuation.ts).
 */
export async function spawnSubagent(parent: RunContext, request: SubagentRequest): Promise<SubagentResult> {
  const session = parent.session;
  const agentId = `agent-${++session.subagents}`;
  const agentType = request.agentType;
  const childTranscriptPath = session.transcriptPath.replace(/(\.jsonl)?$/, `.${agentId}.jsonl`);
  const start = await parent.hooks.fire('SubagentStart', {
    agent_id: agentId,
    agent_type: agentType,
    agent_transcript_path: childTranscriptPath,
    description: request.description ?? null,
    prompt: request.prompt,
  });
  if (start.blocked || start.stop) {
    if (start.stop) session.halt = stopHalt(start);
    const reason = `subagent ${agentType} not started: SubagentStart ${blockedBy(start)}`;
    return { ok: false, text: reason, agentId, stopReason: start.stop ? 'hook_stop' : 'hook_blocked', reason };
  }

  const tools = request.tools ?? [...parent.tools.values()].filter((t) => !t.spawnsSubagents);
  const child = new RunContext(session, { agentId, agentType }, tools, parent.transcript.forAgent(agentId, childTranscriptPath));
  if (request.systemPrompt) child.addMessage({ role: 'system', content: request.systemPrompt });
  child.addMessage({ role: 'user', content: start.additionalContext ? `${request.prompt}\n\n${start.additionalContext}` : request.prompt });
  session.observer.emit({ type: 'subagent_start', agentId, agentType });

  let halt: Halt;
  try {
    halt = await runAgentLoop(child);
  } finally {
    child.transcript.close();
  }
  // A hook inside the child said stop: that halts the whole agent, not just the child.
  if (halt.stopReason === 'hook_stop') session.halt = halt;
  const ok = halt.stopReason === 'end_turn' || halt.stopReason === 'stop_hook_limit';
  if (!ok) await reportChildFailure(child, halt);
  session.observer.emit({ type: 'subagent_end', agentId, agentType, stopReason: halt.stopReason });
  const text = ok
    ? child.lastText
    : `subagent ${agentId} (${agentType}) ended with ${halt.stopReason}${halt.reason ? `: ${halt.reason}` : ''}`;
  return { ok, text, agentId, stopReason: halt.stopReason, reason: halt.reason };
}

/**
 * A child that ended without finishing (error, max steps, a hook's block or
 * stop) still fires SubagentStop, with `success: false` and the `error`: hooks
 * that track subagents see every end. A block there cannot keep a failed child
 * going and is ignored.
 */
async function reportChildFailure(child: RunContext, halt: Halt): Promise<void> {
  const error = halt.error?.message ?? halt.reason ?? halt.stopReason;
  try {
    await child.hooks.fire('SubagentStop', stopFields(child, child.lastText, { success: false, error }));
  } finally {
    child.transcript.close();
  }
}
