import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aiSdkHost,
  claudeCodeHost,
  claudeCodeResidentHost,
  langChainHost,
  mcpProxyHost,
  openAIAgentsHost,
  runtimeHost,
  type Host,
} from './hosts.js';
import { TABLE } from './table.js';
import { slack } from '../support/slack.js';

/**
 * The same policy and the same tool calls on every host hookwise governs: the
 * runtime, `hookwise claude-code` (spawned), each framework adapter with its
 * framework's own mock model, and `hookwise mcp-proxy` with a real MCP client and server.
 */
const HOSTS: Array<[string, () => Promise<Host>]> = [
  ['runtime', runtimeHost],
  ['claude-code', claudeCodeHost],
  ['claude-code (resident)', claudeCodeResidentHost],
  ['ai-sdk', aiSdkHost],
  ['openai-agents', openAIAgentsHost],
  ['langchain', langChainHost],
  ['mcp-proxy', mcpProxyHost],
];

describe.each(HOSTS)('%s', (_name, make) => {
  let host: Host;
  beforeAll(async () => {
    host = await make();
  }, slack(60_000));
  afterAll(async () => {
    await host.close();
  });

  it.each(TABLE.map((row) => [row.name, row] as const))(
    '%s',
    async (_n, row) => {
      const seen = await host.call(row.input);
      const expected = row.except?.[host.name] ?? row.expect;
      expect({ ran: seen.ran, stopped: seen.stopped }).toEqual({ ran: expected.ran, stopped: expected.stopped });
      if (expected.seen !== undefined) expect(seen.seen).toContain(expected.seen);
    },
    slack(60_000),
  );
});
