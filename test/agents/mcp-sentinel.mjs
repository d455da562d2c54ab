#!/usr/bin/env node
/**
 * A minimal MCP server over stdio (newline-delimited JSON-RPC) for the agent suite: one
 * tool, `touch {name}`, that creates the file `name` in the folder given as the first
 * argument (the case's project). A refused MCP call is shown refused by the file it
 * would have made. Every agent starts it from its own MCP configuration (./agents.mjs).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const folder = process.argv[2] ?? process.cwd();
const TOOL = {
  name: 'touch',
  description: 'Creates an empty file of the given name in the project.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);

function result(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params?.protocolVersion ?? '2025-03-26',
        capabilities: { tools: {} },
        serverInfo: { name: 'sentinel', version: '1.0.0' },
      };
    case 'tools/list':
      return { tools: [TOOL] };
    case 'tools/call': {
      // Only a plain file name: the sentinel must land in the project.
      const name = path.basename(String(params?.arguments?.name ?? 'mcp-touched.txt'));
      writeFileSync(path.join(folder, name), 'touched\n');
      return { content: [{ type: 'text', text: `touched ${name}` }] };
    }
    case 'ping':
    case 'resources/list':
    case 'prompts/list':
      return method === 'ping' ? {} : { [method.split('/')[0]]: [] };
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return; // a notification
  const r = result(msg.method, msg.params);
  if (r === undefined) send({ id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
  else send({ id: msg.id, result: r });
});
