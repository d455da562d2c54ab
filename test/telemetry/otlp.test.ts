import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GUARDS_CONFIG, post, preToolUse, TOKEN, workspace, writeConfig } from '../serve/helpers.js';
import { spawnServe } from '../serve/spawn.js';

// A stand-in OpenTelemetry collector: it records what arrives at /v1/traces and /v1/metrics.
const received: Array<{ path: string; body: Buffer }> = [];
const collector = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
const ws = workspace('otlp');
afterAll(async () => {
  await new Promise((r) => collector.close(r));
  ws.cleanup();
});

describe('hookwise serve --otlp', () => {
  it('exports the spans and metrics of its fires, flushed on SIGTERM', async () => {
    const config = writeConfig(ws.configDir, GUARDS_CONFIG);
    const tokenFile = path.join(ws.configDir, 'token');
    writeFileSync(tokenFile, TOKEN);
    const served = await spawnServe(['--config', config, '--token-file', tokenFile, '--otlp', collectorUrl], { cwd: ws.configDir });
    const denied = await post(`${served.url}/v1/claude-code`, preToolUse(ws.project, 'Bash', { command: 'rm -rf /' }));
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
    const traces = received
      .filter((r) => r.path === '/v1/traces')
      .map((r) => r.body.toString('utf8'))
      .join('\n');
    const metrics = received
      .filter((r) => r.path === '/v1/metrics')
      .map((r) => r.body.toString('utf8'))
      .join('\n');
    // OTLP/HTTP JSON or protobuf: either way the names and values travel as plain strings.
    for (const s of [
      'hookwise.fire PreToolUse',
      'hookwise.hook guard:shell',
      'gen_ai.tool.name',
      'Bash',
      'hookwise.tenant',
      'default',
      'deny',
    ])
      expect(traces).toContain(s);
    for (const s of ['hookwise.fire.duration', 'hookwise.hook.decisions', 'hookwise.hook.duration']) expect(metrics).toContain(s);
  });
});
