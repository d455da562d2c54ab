import type { CommandProtocol } from '../types.js';
import { claudeAgentRsProtocol } from './claude-agent-rs.js';
import { claudeCodeProtocol } from './claude-code.js';
import type { Protocol } from './types.js';
import { workflowProtocol } from './workflow.js';

const PROTOCOLS: Record<CommandProtocol, Protocol> = {
  'claude-code': claudeCodeProtocol,
  workflow: workflowProtocol,
  'claude-agent-rs': claudeAgentRsProtocol,
};

export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as CommandProtocol[];

export function protocolFor(name: string): Protocol {
  const protocol = (PROTOCOLS as Record<string, Protocol | undefined>)[name];
  if (!protocol) throw new HandlerOptionError(`unknown command protocol "${name}"; expected one of: ${PROTOCOL_NAMES.join(', ')}`);
  return protocol;
}

export type { Protocol, ProcessOutput, ReadOptions } from './types.js';
export {
  claudeCodeProtocol,
  parseClaudeCodeStdout,
  answerOf,
  readClaudeCodeJson,
  readHttpBody,
  InvalidHookOutputError,
} from './claude-code.js';
import { HandlerOptionError } from '../errors.js';
export { workflowProtocol, workflowEventName } from './workflow.js';
export { claudeAgentRsProtocol, snakeCaseEvent } from './claude-agent-rs.js';
