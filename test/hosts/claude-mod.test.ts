import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withMarker } from '../../src/cli/init/claude-mod.js';
import { modSource } from '../../src/cli/init/mod-source.js';
import { requestMacOf, sealOf } from '../../src/cli/resident/mod-server.js';
import { cliPath, runCli } from '../cli/run-cli.js';

/**
 * `hookwise init claude-code --mod` and the mod's resident (docs/claude-code.md#the-mod).
 * The mod itself runs in the real Claude Code 2.1.328 in `node test/agents/run.mjs
 * --agent claude-code-mod`; here: what init writes, that the mod's own HMAC is the
 * resident's, and that the resident answers only requests under its key, sealed.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-init-mod-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hookwise init claude-code --mod', () => {
  it('writes the mod folder and one marker, kept as it is when run again', async () => {
    const dir = path.join(root, 'project');
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    const mine = { hooks: [{ type: 'command', command: './mine.sh' }] };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify({ model: 'x', hooks: { UserPromptSubmit: [mine] } }));
    const first = await runCli(['init', 'claude-code', '--mod', '--dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('--plugin-dir .claude/hookwise-mod');
    for (const f of ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'hooks/register.js'])
      expect(existsSync(path.join(dir, '.claude', 'hookwise-mod', f))).toBe(true);
    const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.model).toBe('x');
    expect(settings.hooks.UserPromptSubmit).toHaveLength(2);
    expect(settings.hooks.UserPromptSubmit[0]).toEqual(mine);
    expect(settings.hooks.PreToolUse).toBeUndefined();
    await runCli(['init', 'claude-code', '--mod', '--dir', dir]);
    expect(JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'))).toEqual(settings);
  });

  it('after `init claude-code` (or --serve), replaces the settings hooks: each event answered, and recorded, once', async () => {
    const dir = path.join(root, 'from-settings');
    mkdirSync(path.join(dir, '.claude'), { recursive: true });
    const mine = { matcher: 'Bash', hooks: [{ type: 'command', command: './mine.sh' }] };
    writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [mine] } }));
    expect((await runCli(['init', 'claude-code', '--dir', dir])).code).toBe(0);
    const settingsOf = () => JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(JSON.stringify(settingsOf())).toMatch(/hookwise\.js\\" claude-code|hookwise claude-code/);
    const mod = await runCli(['init', 'claude-code', '--mod', '--dir', dir]);
    expect(mod.code).toBe(0);
    expect(mod.stdout).toMatch(
      /hookwise's settings hooks removed on PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SessionEnd/,
    );
    const after = settingsOf();
    // Only the user's hook and the marker are left.
    const marker = (withMarker({}).settings.hooks as Record<string, unknown[]>).UserPromptSubmit![0];
    expect(after.hooks).toEqual({ PreToolUse: [mine], UserPromptSubmit: [marker] });
    expect(JSON.stringify(after)).not.toMatch(/ claude-code\b/);
    // The same from --serve's http entries.
    expect((await runCli(['init', 'claude-code', '--serve', '--dir', dir])).code).toBe(0);
    expect(JSON.stringify(settingsOf())).toContain('/v1/claude-code');
    expect((await runCli(['init', 'claude-code', '--mod', '--dir', dir])).code).toBe(0);
    expect(JSON.stringify(settingsOf())).not.toContain('/v1/claude-code');
  });

  it('--mod goes with claude-code only', async () => {
    const r = await runCli(['init', 'codex', '--mod', '--dir', path.join(root, 'other')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--mod goes with "init claude-code"');
  });

  it('the marker refuses (exit 2, the fix named) without the mod, and passes with it', async () => {
    const command = (withMarker({}).settings.hooks as { UserPromptSubmit: { hooks: { command: string }[] }[] }).UserPromptSubmit[0]!
      .hooks[0]!.command;
    const run = (env: NodeJS.ProcessEnv) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('sh', ['-c', command], { env: { PATH: process.env.PATH, ...env } });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const without = await run({});
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--plugin-dir .claude/hookwise-mod');
    expect((await run({ HOOKWISE_MOD_LOADED: '1' })).code).toBe(0);
  });
});

describe("the mod's HMAC", () => {
  it("is node:crypto's HMAC-SHA-256, for short, long and non-ASCII text", () => {
    const source = modSource({ events: [] });
    const body = source.slice(source.indexOf('const encoder'), source.indexOf('function start('));
    const hmacOf = new Function(`${body}; return hmacOf;`)() as (key: string) => (text: string) => string;
    const key = crypto.randomBytes(32).toString('hex');
    for (const text of ['', 'x', 'é✓\0'.repeat(3), 'y'.repeat(100_000)])
      expect(hmacOf(key)(text)).toBe(crypto.createHmac('sha256', key).update(text).digest('hex'));
  });
});

/** A mod resident serving `dir` under a fresh key, for `use(key, post)`: `post(input, nonce, mac)` is one request. */
async function withModResident(
  dir: string,
  use: (
    key: string,
    post: (input: string, nonce: string, mac: string) => Promise<{ status: number; text: string }>,
    first: { socket: string; unheard?: string[] },
  ) => Promise<void>,
): Promise<void> {
  const key = crypto.randomBytes(32).toString('hex');
  const child = spawn(process.execPath, [cliPath, 'claude-code', '--mod-serve'], {
    cwd: dir,
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir, HOOKWISE_RESIDENT_DIR: path.join(root, 'residents') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    child.stdin.end(key);
    const first = await new Promise<{ socket: string; unheard?: string[] }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      child.on('exit', (code) => reject(new Error(`the resident exited ${code}`)));
    });
    await use(
      key,
      (input, nonce, mac) =>
        new Promise((resolve, reject) => {
          const req = http.request({ socketPath: first.socket, path: '/hook', method: 'POST' }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ nonce, input, mac }));
        }),
      first,
    );
  } finally {
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill();
    await exited;
  }
}

/** A project whose config is `hooks` (the text of the array). */
function projectWith(name: string, hooks: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'hookwise.config.mjs'),
    `import { defineConfig, deny } from 'hookwise';\nexport default defineConfig({ hooks: ${hooks} });\n`,
  );
  return dir;
}

describe('the mod resident (hookwise claude-code --mod-serve)', () => {
  it('answers only under its key, sealed, as hookwise claude-code answers', async () => {
    const dir = projectWith(
      'served',
      `[{ name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: 'rm ' }, handler: () => deny('NO-RM here') }]`,
    );
    await withModResident(dir, async (key, post) => {
      const input = JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd: dir,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      });
      const nonce = crypto.randomBytes(16).toString('hex');
      // The agent's shell can reach the socket but holds no key: nothing runs.
      expect((await post(input, nonce, requestMacOf('0'.repeat(64), nonce, input))).status).toBe(403);
      const answered = await post(input, nonce, requestMacOf(key, nonce, input));
      expect(answered.status).toBe(200);
      const { reply, seal } = JSON.parse(answered.text);
      expect(seal).toBe(sealOf(key, nonce, input, reply));
      const answer = JSON.parse(reply);
      expect(answer.code).toBe(0);
      expect(JSON.parse(answer.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'NO-RM here',
      });
      // Only PreToolUse is heard: the mod need not send PostToolBatch, nor wait on the others.
      expect(answer.unheard).toContain('PostToolBatch');
      expect(answer.unheard).toContain('SessionStart');
      expect(answer.unheard).not.toContain('PreToolUse');
    });
  });

  it('lists PostToolBatch as unheard only while no hook of the policy listens to it', async () => {
    const dir = projectWith('batch', `[{ name: 'batch-note', events: 'PostToolBatch', handler: () => undefined }]`);
    await withModResident(dir, async (key, post) => {
      const input = JSON.stringify({ hook_event_name: 'PostToolBatch', session_id: 's', cwd: dir, tool_calls: [] });
      const nonce = crypto.randomBytes(16).toString('hex');
      const { reply } = JSON.parse((await post(input, nonce, requestMacOf(key, nonce, input))).text);
      expect(JSON.parse(reply)).toMatchObject({ code: 0 });
      expect(JSON.parse(reply).unheard).not.toContain('PostToolBatch');
    });
  });
});

describe("the mod resident's start", () => {
  it('tells what nobody listens to as it starts, when the policy files are as the last resident loaded them', async () => {
    const dir = projectWith('hearing', `[{ name: 'no-rm', events: 'PreToolUse', handler: () => undefined }]`);
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: dir,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    const answerOnce = async (key: string, post: (input: string, nonce: string, mac: string) => Promise<{ status: number }>) => {
      const nonce = crypto.randomBytes(16).toString('hex');
      expect((await post(input, nonce, requestMacOf(key, nonce, input))).status).toBe(200);
    };
    // The first resident of this policy knows nothing before it loads it.
    await withModResident(dir, async (key, post, first) => {
      expect(first.unheard).toBeUndefined();
      await answerOnce(key, post);
    });
    await withModResident(dir, async (key, post, first) => {
      expect(first.unheard).toContain('SessionStart');
      expect(first.unheard).not.toContain('PreToolUse');
      await answerOnce(key, post);
    });
    // The policy gains a SessionStart hook: what the last resident found is not believed.
    writeFileSync(
      path.join(dir, 'hookwise.config.mjs'),
      `import { defineConfig } from 'hookwise';\nexport default defineConfig({ hooks: [{ name: 'hello', events: 'SessionStart', handler: () => undefined }] });\n`,
    );
    await withModResident(dir, async (_key, _post, first) => {
      expect(first.unheard).toBeUndefined();
    });
  });
});

describe('the mod resident in a folder past the Unix socket limit', () => {
  it('does not start, and says why and what to set, rather than leaving the mod to wait', () => {
    const long = path.join(root, 'r'.repeat(60), 's'.repeat(60));
    mkdirSync(long, { recursive: true, mode: 0o700 });
    const r = spawnSync(process.execPath, [cliPath, 'claude-code', '--mod-serve'], {
      input: `${'a'.repeat(64)}\n`,
      encoding: 'utf8',
      env: { ...process.env, HOOKWISE_RESIDENT_DIR: long, HOOKWISE_CLAUDE_CODE: '' },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /not starting: the socket path .* is \d+ bytes, over the 100 a Unix socket allows here: set HOOKWISE_RESIDENT_DIR/,
    );
  });
});
