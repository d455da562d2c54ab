import type { FailureAnswer } from '../envelope.js';
import type { Host } from '../../hosts/host.js';
import { hostNamed } from '../../hosts/index.js';

/**
 * What the agent gets when hookwise itself fails, in the form that fails closed there
 * (src/hosts/<agent>): for Claude Code exit 2 (block) where exit 2 blocks, else exit 1,
 * and on end-of-turn events an answer that ends the run. An unknown agent is answered
 * as Claude Code.
 */
export function failureAnswer(event: string | undefined, reason: string, failOpen: boolean, agent?: string): FailureAnswer {
  let host: Host;
  try {
    host = hostNamed(agent);
  } catch {
    host = hostNamed('claude-code');
  }
  const answer = host.failure(event, reason, failOpen);
  return { ...(answer.stdout && { stdout: answer.stdout }), stderr: answer.stderr ?? '', code: answer.code };
}
