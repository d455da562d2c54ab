/** Span and metric attribute names (docs/fleet.md). GenAI semantic conventions where one fits. */
export const ATTR = {
  event: 'hookwise.event',
  decision: 'hookwise.decision',
  blocked: 'hookwise.blocked',
  stop: 'hookwise.stop',
  reason: 'hookwise.reason',
  hookCount: 'hookwise.hook.count',
  hookName: 'hookwise.hook.name',
  hookStatus: 'hookwise.hook.status',
  hookResult: 'hookwise.hook.result',
  hookDurationMs: 'hookwise.hook.duration_ms',
  tenant: 'hookwise.tenant',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  conversationId: 'gen_ai.conversation.id',
  errorType: 'error.type',
} as const;

export const METRIC = {
  fireDuration: 'hookwise.fire.duration',
  hookDuration: 'hookwise.hook.duration',
  decisions: 'hookwise.hook.decisions',
  outcomes: 'hookwise.fire.outcomes',
  failures: 'hookwise.hook.failures',
} as const;
