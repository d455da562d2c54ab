import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { outsideDir } from '../support/outside-dir.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApprovals, type AnyApprovalStore } from '../../src/approvals/index.js';
import { WITHHELD_OUTPUT } from '../../src/serve/answers.js';
import { hashToken } from '../../src/serve/tenants.js';
import { GUARDS_CONFIG, post, preToolUse, workspace, writeConfig, type Answer } from './helpers.js';
import { spawnServe, type Served } from './spawn.js';

// Issue 23, findings 4 and 5, through a spawned `hookwise serve` with two tenants. Claude
// Code runs the tool on any non-2xx answer of an http hook, and on a 200 that does not
// deny: `claudeCodeRuns` is that rule, and an allowed command is then run with real bash
// against a sentinel file, so a hole shows as a deleted file.
const ACME = 'acme-agents-token-0123456789';
const GLOBEX = 'globex-agents-token-0123456789';
// Above the 160 KB command of finding 4, so that it reaches the parser.
const MAX_BODY = 256 * 1024;

const ws = workspace('boundaries');
// acme may only work under `roots`; globex anywhere.
const roots = mkdtempSync(path.join(tmpdir(), 'hookwise-roots-'));
const project = path.join(roots, 'app');
// Not in /tmp: the sandbox gives each command its own /tmp, so a write there escapes nothing.
const outside = outsideDir('hookwise-outside-');
const sentinel = path.join(outside, 'victim.txt');
let served: Served;
let approvals: AnyApprovalStore;

beforeAll(async () => {
  mkdirSync(project);
  // A link inside the roots that leads out of them.
  symlinkSync(outside, path.join(roots, 'link-root'));
  writeConfig(ws.configDir, GUARDS_CONFIG, 'policy.config.mjs');
  const tenants = {
    tenants: [
      { name: 'acme', tokenSha256: hashToken(ACME), config: 'policy.config.mjs', projectRoots: [roots] },
      { name: 'globex', tokenSha256: hashToken(GLOBEX), config: 'policy.config.mjs' },
    ],
  };
  writeFileSync(path.join(ws.configDir, 'tenants.json'), JSON.stringify(tenants));
  served = await spawnServe(['--tenants', 'tenants.json', '--max-body', String(MAX_BODY), '--audit', 'audit.db', '--no-watch'], {
    cwd: ws.configDir,
  });
  approvals = await openApprovals(path.join(ws.configDir, 'audit.db'));
});
afterAll(async () => {
  await approvals?.close();
  if (served) {
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }
  ws.cleanup();
  rmSync(roots, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(sentinel, 'keep me'));

/** Claude Code's rule for an http hook's answer to PreToolUse: does the tool run? */
function claudeCodeRuns(a: Answer): boolean {
  if (a.status < 200 || a.status > 299) return true;
  const out = a.json as { decision?: string; hookSpecificOutput?: { permissionDecision?: string } } | undefined;
  return out?.hookSpecificOutput?.permissionDecision !== 'deny' && out?.decision !== 'block';
}

/** Ask serve as Claude Code would, and run the command when Claude Code would. */
async function viaClaudeCode(url: string, body: unknown, token = ACME, cwd = project): Promise<Answer> {
  const a = await post(url, body, {}, token);
  if (claudeCodeRuns(a)) {
    // Claude Code runs the rewritten command when there is one (the shell guard's sandboxed line).
    const rewritten = (a.json as { hookSpecificOutput?: { updatedInput?: { command?: string } } } | undefined)?.hookSpecificOutput
      ?.updatedInput;
    const command = rewritten?.command ?? (body as { tool_input?: { command?: string } }).tool_input?.command;
    if (typeof command === 'string') spawnSync('bash', ['-c', command], { cwd });
  }
  return a;
}

const reasonOf = (a: Answer) =>
  (a.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
const attack = `rm -f ${sentinel}`;

describe('finding 4: one huge command is refused alone, in the same server process', () => {
  it("is denied with its reason for one tenant, and neither tenant's next command changes", async () => {
    const huge = `true${' | true'.repeat(20000)} | rm -rf /etc`;
    const [refused, other] = await Promise.all([
      post(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: huge }), {}, ACME),
      post(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: 'ls' }), {}, GLOBEX),
    ]);
    expect(refused.status).toBe(200);
    expect(reasonOf(refused)).toBe(
      `the command is ${huge.length} characters long; hookwise parses commands of at most 65536 (write long content to a file with the Write tool instead)`,
    );
    expect(other.status).toBe(200);
    expect(claudeCodeRuns(other)).toBe(true);
    const pipes = `true${' | true'.repeat(200)}`;
    expect(reasonOf(await post(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: pipes }), {}, GLOBEX))).toBe(
      'the command chains more than 128 pipes (|); hookwise parses at most 128 in one command',
    );
    for (const token of [ACME, GLOBEX]) {
      const ls = await post(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: 'ls' }), {}, token);
      expect(ls.status).toBe(200);
      expect(claudeCodeRuns(ls)).toBe(true);
      // The guard still judges: the sentinel outside the project stays.
      const denied = await viaClaudeCode(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: attack }), token);
      expect(reasonOf(denied)).toMatch(/outside the workspace/);
      expect(existsSync(sentinel)).toBe(true);
    }
  });
});

describe('finding 5: every hook request gets a decision', () => {
  it('an unowned path is a 404, and Claude Code then runs the tool (the hole this closes)', async () => {
    await viaClaudeCode(`${served.url}/v1/claude-codex`, preToolUse(project, 'Bash', { command: attack }));
    expect(existsSync(sentinel)).toBe(false);
  });

  it('answers under the hook route whatever the path carries: a query, slashes, segments, encoding, case', async () => {
    for (const route of [
      '/v1/claude-code?x=1',
      '/v1/claude-code/',
      '/v1/claude-code/PreToolUse?x=1',
      '//v1//claude-code',
      '/v1/claude%2Dcode',
      '/V1/Claude-Code',
    ]) {
      const a = await viaClaudeCode(`${served.url}${route}`, preToolUse(project, 'Bash', { command: attack }));
      expect({ route, status: a.status, deny: reasonOf(a) }).toMatchObject({
        route,
        status: 200,
        deny: expect.stringMatching(/outside the workspace/),
      });
      expect(existsSync(sentinel)).toBe(true);
      // And an ordinary command is allowed there.
      const ls = await post(`${served.url}${route}`, preToolUse(project, 'Bash', { command: 'ls' }), {}, ACME);
      expect({ route, status: ls.status, runs: claudeCodeRuns(ls) }).toEqual({ route, status: 200, runs: true });
    }
  });

  it('a cut body whose event name is escaped is a deny', async () => {
    const cut = `{"session_id":"s","cwd":${JSON.stringify(project)},"hook_event_name":"Pre\\u0054oolUse","tool_name":"Bash","tool_input":{"command":${JSON.stringify(attack)}`;
    const a = await post(`${served.url}/v1/claude-code`, cut, {}, ACME);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-hookwise-error')).toBe('400');
    expect(a.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    expect(reasonOf(a)).toMatch(/^hookwise serve: the body is not JSON/);
  });

  it('a body that names no event it can read is a block', async () => {
    for (const body of ['{"tool_name":"Bash","tool_input":{"command":"rm -rf /"', '', 'null', '{"hook_event_name":""}']) {
      const a = await post(`${served.url}/v1/claude-code`, body, {}, ACME);
      expect(a.status).toBe(200);
      expect(claudeCodeRuns(a)).toBe(false);
    }
  });

  it('a PostToolUse over --max-body never shows the model its output', async () => {
    const secret = `AKIA${'Q'.repeat(16)}`;
    const body = {
      session_id: 's',
      cwd: project,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat big.log' },
      tool_response: { stdout: `${'log line\n'.repeat(MAX_BODY / 8)}${secret}`, stderr: '', interrupted: false, isImage: false },
    };
    const a = await post(`${served.url}/v1/claude-code`, body, {}, ACME);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-hookwise-error')).toBe('413');
    expect(a.json).toEqual({
      systemMessage: `hookwise serve: request body over the limit of ${MAX_BODY} bytes`,
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: { stdout: WITHHELD_OUTPUT, stderr: '', interrupted: false, isImage: false },
      },
    });
    // Within the limit, the secret guard redacts as before.
    const small = { ...body, tool_response: { ...body.tool_response, stdout: `key ${secret}` } };
    const b = await post(`${served.url}/v1/claude-code`, small, {}, ACME);
    expect(b.text).not.toContain(secret);
    expect(b.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stderr: '' } } });
  });

  it('/v1/fire: an unknown event is 400 (never 500); a query, a trailing slash or an encoded name still fires', async () => {
    const input = { tool_name: 'Bash', tool_input: { command: attack }, cwd: project };
    const typo = await post(`${served.url}/v1/fire/PreToolUs`, input, {}, ACME);
    expect(typo.status).toBe(400);
    expect(typo.json).toEqual({
      error:
        'hookwise serve: unknown event "PreToolUs"; did you mean "PreToolUse"? (event names are case-sensitive; a custom event must not look like a known one)',
    });
    expect((await post(`${served.url}/v1/fire/`, input, {}, ACME)).status).toBe(400);
    expect((await post(`${served.url}/v1/fire/PreToolUse/x`, input, {}, ACME)).status).toBe(400);
    for (const route of ['/v1/fire/PreToolUse?x=1', '/v1/fire/PreToolUse/', '/v1/fire/%50reToolUse']) {
      const a = await post(`${served.url}${route}`, input, {}, ACME);
      expect({ route, status: a.status, json: a.json }).toMatchObject({
        route,
        status: 200,
        json: { event: 'PreToolUse', decision: 'deny' },
      });
    }
  });

  it("project roots are compared after following links: R/link-root pointing outside is refused (another tenant's guards let it through)", async () => {
    const through = path.join(roots, 'link-root');
    const body = preToolUse(through, 'Bash', { command: attack });
    // globex has no roots: its workspace is where the link leads, which holds the sentinel.
    await viaClaudeCode(`${served.url}/v1/claude-code`, body, GLOBEX, through);
    expect(existsSync(sentinel)).toBe(false);
    writeFileSync(sentinel, 'keep me');
    const a = await viaClaudeCode(`${served.url}/v1/claude-code`, body, ACME, through);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-hookwise-error')).toBe('403');
    expect(reasonOf(a)).toBe(`hookwise serve: ${through} is outside the project roots of tenant acme (or does not exist), links followed`);
    expect(existsSync(sentinel)).toBe(true);
    // The real project, inside the roots, still works.
    const ls = await post(`${served.url}/v1/claude-code`, preToolUse(project, 'Bash', { command: 'ls' }), {}, ACME);
    expect(claudeCodeRuns(ls)).toBe(true);
  });
});

describe("finding 5: an agent's token never approves its own ask", () => {
  it('in a tenant with no approvers, the tenant token may deny but not approve', async () => {
    const pending = await approvals.request({
      tenant: 'acme',
      sessionId: 'boundaries',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: 'npm publish' },
      toolUseId: 'toolu_self_approval',
      hook: 'publish-guard',
      reason: 'publishing needs a person',
    });
    const url = `${served.url}/v1/approvals/${pending.id}`;
    const approve = await post(`${url}/approve`, {}, {}, ACME);
    expect(approve.status).toBe(403);
    expect((approve.json as { error: string }).error).toMatch(/is the token of tenant "acme"'s agents, which may deny but never approve/);
    expect((await approvals.get(pending.id))!.state).toBe('pending');
    const deny = await post(`${url}/deny`, {}, {}, ACME);
    expect(deny.json).toMatchObject({ state: 'denied', answeredBy: 'tenant:acme' });
  });
});
