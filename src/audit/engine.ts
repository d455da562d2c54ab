import type { HookEngine } from '../core/engine.js';
import type { AuditSink } from './types.js';

export interface AuditEngineOptions {
  /** Records this session id instead of the one each fire ran under. */
  sessionId?: string;
}

/**
 * Appends an `outcome` record for every fire of `engine`. The listener sees every
 * Outcome, denials included (docs/model.md, "Order"), so no hook can hide a call
 * from the trail. For tool events, the call itself (tool_name, tool_input,
 * tool_use_id) is kept next to the Outcome under `data.input`, as the agent asked
 * for it: the input as received, before any hook rewrote it. What ran instead, when
 * a hook rewrote it (the OS sandbox's `bwrap` line, a redirected path), is the
 * Outcome's `updatedInput` beside it, and the hook that did it is in `hooks`.
 * Returns the function that stops recording.
 */
export function auditEngine(engine: Pick<HookEngine, 'on'>, store: AuditSink, options: AuditEngineOptions = {}): () => void {
  return engine.on('outcome', (outcome, { received: input, sessionId }) => {
    const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
    const data: Record<string, unknown> = { ...outcome };
    if (tool !== undefined) {
      const call: Record<string, unknown> = { tool_name: tool };
      if (input.tool_input !== undefined) call.tool_input = input.tool_input;
      if (input.tool_use_id !== undefined) call.tool_use_id = input.tool_use_id;
      data.input = call;
    }
    store.append({
      kind: 'outcome',
      ts: new Date().toISOString(),
      sessionId: options.sessionId ?? sessionId,
      event: outcome.event,
      decision: outcome.decision,
      tool,
      data,
    });
  });
}
