import { readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { outsideDir } from '../support/outside-dir.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounterStore, type CounterStore } from '../../src/counters/index.js';
import { WITHHELD_OUTPUT } from '../../src/serve/answers.js';
import { startHookServer, type HookServer } from '../../src/serve/index.js';
import { GUARDS_CONFIG, post, preToolUse, tenant, TOKEN, workspace, writeConfig } from './helpers.js';
import { unsealed } from '../support/sandbox-line.js';

const ws = workspace('server');
const logs: string[] = [];
let server: HookServer;
let configFile: string;

beforeAll(async () => {
  configFile = writeConfig(ws.configDir, GUARDS_CONFIG);
  server = await startHookServer({ tenants: [tenant('default', configFile)], port: 0, log: (l) => logs.push(l), maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
  ws.cleanup();
});

const cc = (body: unknown, headers?: Record<string, string>, token?: string | null) =>
  post(`${server.url}/v1/claude-code`, body, headers, token);

/** Claude Code runs the call, as the sandboxed line the shell guard answers. */
function runsSandboxed(a: { status: number; json?: any }): boolean {
  const command = a.json?.hookSpecificOutput?.updatedInput?.command;
  return (
    a.status === 200 &&
    a.json?.hookSpecificOutput?.permissionDecision === undefined &&
    typeof command === 'string' &&
    unsealed(command).includes('/bwrap ')
  );
}

describe('POST /v1/claude-code', () => {
  it("answers a denied tool call in Claude Code's PreToolUse format", async () => {
    const a = await cc(preToolUse(ws.project, 'Bash', { command: 'rm -rf /' }));
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
  });

  it('answers 200 with an empty body when nothing objects (Claude Code goes on as if no hook ran)', async () => {
    const a = await cc(preToolUse(ws.project, 'Read', { file_path: `${ws.project}/README.md` }));
    expect(a.status).toBe(200);
    expect(a.text).toBe('');
  });

  it('answers an allowed Bash call with the command in its OS sandbox, and no decision (docs/security.md#the-os-sandbox)', async () => {
    const a = await cc(preToolUse(ws.project, 'Bash', { command: 'git status' }));
    expect(a.status).toBe(200);
    expect(runsSandboxed(a)).toBe(true);
    expect(a.json).toHaveProperty('hookSpecificOutput');
    expect(a.json).not.toHaveProperty('hookSpecificOutput.permissionDecision');
  });

  it('judges a repeated command against the file system of the moment: a symlink made between two identical calls changes the answer', async () => {
    // Not in /tmp: the sandbox gives each command its own /tmp, so a write there escapes nothing.
    const outside = outsideDir('hookwise-serve-outside-');
    const link = path.join(ws.project, 'notes');
    const call = () => cc(preToolUse(ws.project, 'Bash', { command: 'echo hi > notes/out.txt' }));
    try {
      for (let i = 0; i < 3; i++) expect(runsSandboxed(await call())).toBe(true);
      symlinkSync(outside, link);
      const denied = await call();
      expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      expect(denied.text).toContain('through a symlink');
      unlinkSync(link);
      expect(runsSandboxed(await call())).toBe(true);
    } finally {
      rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a missing or unknown token with a deny that Claude Code applies, and the status in a header', async () => {
    // The valid header first: a header remembered as valid must not let a near miss through.
    expect((await cc(preToolUse(ws.project, 'Bash', { command: 'git status' }))).headers.get('x-hookwise-error')).toBeNull();
    for (const token of [null, 'not-the-token-at-all', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const a = await cc(preToolUse(ws.project, 'Bash', { command: 'git status' }), {}, token);
      expect(a.status).toBe(200);
      expect(a.headers.get('x-hookwise-error')).toBe('401');
      expect(a.json).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason:
            token === null ? 'hookwise serve: missing bearer token (Authorization: Bearer <token>)' : 'hookwise serve: unknown token',
        },
      });
    }
  });

  it('blocks other blockable events the Claude Code way, holds PostToolUse output back, and answers the real status on events that cannot block', async () => {
    const stop = await cc(
      { session_id: 's', cwd: ws.project, hook_event_name: 'Stop', stop_hook_active: false },
      {},
      'wrong-token-xxxxxxxx',
    );
    expect(stop.status).toBe(200);
    expect(stop.json).toEqual({ decision: 'block', reason: 'hookwise serve: unknown token' });
    const post = await cc(
      { session_id: 's', cwd: ws.project, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: {} },
      {},
      'wrong-token-xxxxxxxx',
    );
    // The tool ran, but its output was never checked: the model gets a placeholder (Bash's output is an object).
    expect(post.status).toBe(200);
    expect(post.headers.get('x-hookwise-error')).toBe('401');
    expect(post.json).toEqual({
      systemMessage: 'hookwise serve: unknown token',
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: { stdout: WITHHELD_OUTPUT, stderr: '', interrupted: false, isImage: false },
      },
    });
    const note = await cc({ session_id: 's', cwd: ws.project, hook_event_name: 'Notification', message: 'hi' }, {}, 'wrong-token-xxxxxxxx');
    expect(note.status).toBe(401);
    expect(note.json).toEqual({ error: 'hookwise serve: unknown token' });
  });

  it('refuses a body over the limit (413) with a deny for the event it names', async () => {
    const big = preToolUse(ws.project, 'Write', { file_path: path.join(ws.project, 'a.txt'), content: 'x'.repeat(100 * 1024) });
    const a = await cc(big);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-hookwise-error')).toBe('413');
    expect(a.json).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: 'hookwise serve: request body over the limit of 65536 bytes',
      },
    });
    const fire = await post(`${server.url}/v1/fire/PreToolUse`, big);
    expect(fire.status).toBe(413);
  });

  it('refuses a body that is not JSON, or has no event', async () => {
    const cut = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"`;
    const a = await cc(cut);
    expect(a.headers.get('x-hookwise-error')).toBe('400');
    expect(a.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    // No one can tell which event it was: a block every blockable event honours.
    const none = await cc({ tool_name: 'Bash' });
    expect(none.status).toBe(200);
    expect(none.headers.get('x-hookwise-error')).toBe('400');
    expect(none.json).toEqual({
      decision: 'block',
      reason: 'hookwise serve: hook_event_name is missing; expected the JSON Claude Code sends a hook',
    });
  });

  it('needs the project directory, absolute, from the input cwd or the header', async () => {
    const { cwd: _, ...noCwd } = preToolUse(ws.project, 'Bash', { command: 'ls' });
    const a = await cc(noCwd);
    expect(a.headers.get('x-hookwise-error')).toBe('400');
    expect((a.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toMatch(
      /name the project directory as an absolute path/,
    );
    const b = await cc(noCwd, { 'x-hookwise-project-dir': ws.project });
    expect(b.status).toBe(200);
    expect(b.headers.get('x-hookwise-error')).toBeNull();
  });
});

describe('POST /v1/fire/:event', () => {
  it('returns the Outcome', async () => {
    const a = await post(
      `${server.url}/v1/fire/PreToolUse`,
      { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
      { 'x-hookwise-project-dir': ws.project },
    );
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ event: 'PreToolUse', decision: 'deny', blocked: true, hooks: expect.any(Array) });
  });

  it('answers 401 without a token', async () => {
    const a = await post(
      `${server.url}/v1/fire/PreToolUse`,
      { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: ws.project },
      {},
      null,
    );
    expect(a.status).toBe(401);
  });
});

describe('health, readiness, routes', () => {
  it('answers /healthz and /readyz, 404 and 405', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ ready: true });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/claude-code`)).status).toBe(405);
  });
});

describe('config reload', () => {
  it('serves a changed config, refuses a broken one loudly and keeps the last good one', async () => {
    const w = workspace('reload');
    const file = writeConfig(
      w.configDir,
      `import { deny } from 'hookwise';
export default { hooks: [{ name: 'v1', events: ['PreToolUse'], handler: () => deny('v1 says no') }] };\n`,
    );
    const lines: string[] = [];
    const s = await startHookServer({ tenants: [tenant('t', file)], port: 0, log: (l) => lines.push(l) });
    const reason = async () =>
      (
        (await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }))).json as
          | { hookSpecificOutput?: { permissionDecisionReason?: string } }
          | undefined
      )?.hookSpecificOutput?.permissionDecisionReason;
    const policy = s.policies.get('t')!;
    const reloaded = async (expected: number) => {
      while (policy.reloads < expected) await new Promise((r) => setTimeout(r, 25));
    };
    const refused = async () => {
      while (!policy.lastError) await new Promise((r) => setTimeout(r, 25));
    };
    try {
      expect(await reason()).toBe('v1 says no');
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('v1', 'v2'));
      await reloaded(1);
      expect(await reason()).toBe('v2 says no');
      writeFileSync(file, `export default { hooks: [ this is not javascript ] };\n`);
      await refused();
      expect(lines.some((l) => /tenant t: config reload REFUSED, keeping the last good config: .*hookwise\.config\.mjs/.test(l))).toBe(
        true,
      );
      expect(await reason()).toBe('v2 says no');
      writeFileSync(
        file,
        `import { deny } from 'hookwise';
export default { hooks: [{ name: 'v3', events: ['PreToolUse'], handler: () => deny('v3 says no') }] };\n`,
      );
      await reloaded(2);
      expect(await reason()).toBe('v3 says no');
    } finally {
      await s.close();
      w.cleanup();
    }
  });
});

describe('rate limits and failing stores', () => {
  it('limits a tenant per window: 429 on the JSON API, a deny to Claude Code', async () => {
    const w = workspace('rate');
    const file = writeConfig(w.configDir, GUARDS_CONFIG);
    const s = await startHookServer({
      tenants: [tenant('r', file, TOKEN, { rateLimit: { requests: 3, windowMs: 3_600_000 } })],
      port: 0,
      log: () => {},
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await post(`${s.url}/v1/fire/PreToolUse`, { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: w.project })).status,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
      const a = await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }));
      expect(a.headers.get('x-hookwise-error')).toBe('429');
      expect(a.json).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: 'hookwise serve: tenant r is over its rate limit of 3 requests per 3600 s',
        },
      });
    } finally {
      await s.close();
      w.cleanup();
    }
  });

  it('fails closed when the counter store fails: a deny, never a silent allow', async () => {
    const w = workspace('broken-store');
    const file = writeConfig(w.configDir, GUARDS_CONFIG);
    const broken: CounterStore = new MemoryCounterStore();
    broken.scoped = () =>
      ({ ...new MemoryCounterStore(), increment: () => Promise.reject(new Error('connection lost')) }) as unknown as CounterStore;
    const lines: string[] = [];
    const s = await startHookServer({
      tenants: [tenant('b', file, TOKEN, { rateLimit: { requests: 100, windowMs: 1000 } })],
      port: 0,
      counters: broken,
      log: (l) => lines.push(l),
    });
    try {
      const a = await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }));
      expect(a.status).toBe(200);
      expect(a.headers.get('x-hookwise-error')).toBe('500');
      expect(a.json).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'hookwise serve: internal error: connection lost' },
      });
      expect(lines).toContain('hookwise serve: internal error: connection lost');
    } finally {
      await s.close();
      w.cleanup();
    }
  });
});

describe('acknowledgement', () => {
  it('answers only once the record is durable, and denies when it cannot be made durable', async () => {
    const w = workspace('ack');
    const file = writeConfig(w.configDir, GUARDS_CONFIG);
    let flushes = 0;
    let failing = false;
    const s = await startHookServer({
      tenants: [tenant('a', file)],
      port: 0,
      log: () => {},
      acknowledge: async () => {
        flushes++;
        if (failing) throw new Error('disk full');
      },
    });
    try {
      const ok = await Promise.all(
        Array.from({ length: 10 }, () => post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'git status' }))),
      );
      expect(ok.every((a) => a.status === 200 && runsSandboxed(a))).toBe(true);
      expect(flushes).toBeGreaterThanOrEqual(1);
      expect(flushes).toBeLessThanOrEqual(10);
      failing = true;
      const denied = await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'git status' }));
      expect(denied.json).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'hookwise serve: internal error: disk full' },
      });
    } finally {
      await s.close();
      w.cleanup();
    }
  });
});

describe('tenants', () => {
  it("each token gets its own tenant's policy, and project roots are enforced", async () => {
    const w = workspace('tenants');
    const strict = writeConfig(
      w.configDir,
      `import { deny } from 'hookwise';
export default { hooks: [{ name: 'strict', events: ['PreToolUse'], handler: () => deny('strict tenant') }] };\n`,
      'strict.mjs',
    );
    const lax = writeConfig(
      w.configDir,
      `import { allow } from 'hookwise';
export default { hooks: [{ name: 'lax', events: ['PreToolUse'], handler: () => allow('lax tenant') }] };\n`,
      'lax.mjs',
    );
    const s = await startHookServer({
      tenants: [
        tenant('strict', strict, 'token-strict-xxxxxxxx'),
        tenant('lax', lax, 'token-lax-xxxxxxxxxxx', { projectRoots: [w.project] }),
      ],
      port: 0,
      log: () => {},
    });
    try {
      const body = preToolUse(w.project, 'Bash', { command: 'ls' });
      expect((await post(`${s.url}/v1/claude-code`, body, {}, 'token-strict-xxxxxxxx')).json).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'strict tenant' },
      });
      expect((await post(`${s.url}/v1/claude-code`, body, {}, 'token-lax-xxxxxxxxxxx')).json).toMatchObject({
        hookSpecificOutput: { permissionDecision: 'allow', permissionDecisionReason: 'lax tenant' },
      });
      const outside = await post(`${s.url}/v1/claude-code`, { ...body, cwd: '/etc' }, {}, 'token-lax-xxxxxxxxxxx');
      expect(outside.headers.get('x-hookwise-error')).toBe('403');
      expect(outside.json).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: 'hookwise serve: /etc is outside the project roots of tenant lax (or does not exist), links followed',
        },
      });
    } finally {
      await s.close();
      w.cleanup();
    }
  });

  it("fires with the request's project directory as the hooks' cwd, never the server's", async () => {
    const w = workspace('cwd');
    const file = writeConfig(
      w.configDir,
      `import { deny } from 'hookwise';
export default { hooks: [{ name: 'where', events: ['PreToolUse'], handler: (i, ctx) => deny(ctx.cwd) }] };\n`,
    );
    const s = await startHookServer({ tenants: [tenant('c', file)], port: 0, log: () => {} });
    try {
      const a = await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }));
      expect((a.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toBe(
        w.project,
      );
      const b = await post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }), {
        'x-hookwise-project-dir': w.configDir,
      });
      expect((b.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toBe(
        w.configDir,
      );
    } finally {
      await s.close();
      w.cleanup();
    }
  });
});

describe('drain', () => {
  it('finishes the requests in flight, then stops accepting', async () => {
    const w = workspace('drain');
    const file = writeConfig(
      w.configDir,
      `import { deny } from 'hookwise';
let release; export const gate = new Promise((r) => (release = r)); globalThis.__hookwiseReleaseDrain = () => release();
export default { hooks: [{ name: 'slow', events: ['PreToolUse'], handler: async () => { globalThis.__hookwiseEntered?.(); await gate; return deny('answered after the drain began'); } }] };\n`,
    );
    const s = await startHookServer({ tenants: [tenant('d', file)], port: 0, log: () => {} });
    try {
      const entered = new Promise<void>((r) => ((globalThis as Record<string, unknown>).__hookwiseEntered = r));
      const inflight = post(`${s.url}/v1/claude-code`, preToolUse(w.project, 'Bash', { command: 'ls' }));
      await entered;
      const closed = s.close();
      await new Promise((r) => setTimeout(r, 50));
      await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
      ((globalThis as Record<string, unknown>).__hookwiseReleaseDrain as () => void)();
      const a = await inflight;
      expect(a.json).toMatchObject({ hookSpecificOutput: { permissionDecisionReason: 'answered after the drain began' } });
      await closed;
    } finally {
      await s.close();
      w.cleanup();
    }
  });
});
