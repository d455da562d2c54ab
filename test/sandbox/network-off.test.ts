import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { resolveSandbox, Sandbox } from '../../src/sandbox/index.js';
import { makeRange, runBash, type Range } from './harness.js';

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

function line(command: string, network: 'off' | 'on' = 'off'): string {
  const sandbox = new Sandbox(resolveSandbox({ network }, 'test')!);
  return sandbox.wrap(command, new PathPolicy({ workspace: r.ws, home: r.home }), r.env).line;
}

// 192.0.2.1 is TEST-NET-1: outside, a route may exist (the connection then times out); inside there is none.
const CONNECT = `python3 -c "import socket; socket.create_connection(('192.0.2.1', 80), 5)"`;

describe('with no network, a blocked connection says so at once', () => {
  it('a connection that found no route gets one line naming the setting, and keeps its exit status', async () => {
    const result = await runBash(r, line(`${CONNECT}; exit 7`));
    expect(result.status).toBe(7);
    expect(result.stderr).toMatch(/Network is unreachable/);
    expect(result.stderr).toMatch(
      /hookwise sandbox: this command tried to reach the network.*sandbox\.network is 'off'.*network: 'registries'/,
    );
  });

  it('a command that reaches for nothing gets no line, and a cd still persists', async () => {
    const result = await runBash(r, `${line('cd src && echo hi')}; pwd`);
    expect(result.stdout).toBe(`hi\n${r.ws}/src\n`);
    expect(result.stderr).toBe('');
  });

  it('package managers are told not to retry (npm waited 75 s on its retries)', async () => {
    const result = await runBash(r, line('echo "$npm_config_fetch_retries $PIP_RETRIES $CARGO_NET_RETRY"'));
    expect(result.stdout).toBe('0 0 0\n');
    const on = await runBash(r, line('echo "[$npm_config_fetch_retries]"', 'on'));
    expect(on.stdout).toBe('[]\n');
  });
});
