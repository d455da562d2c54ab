import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookEngine, deny, replaceOutput } from '../../src/index.js';
import { pathGuard } from '../../src/guards/index.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import type { Host } from '../../src/hosts/host.js';
import { copilotMcpTool } from '../../src/hosts/copilot/mcp.js';
import { openCodeMcpTool } from '../../src/hosts/opencode/mcp.js';

/**
 * What the agent suite (test/agents) found with the real CLIs: a replaced tool output
 * reaches Codex and Copilot only as a PostToolUse block's reason (`updatedToolOutput`
 * fails Codex's hook, Copilot ignores it) and droid not at all (the run must end); an MCP
 * tool arrives as Copilot's `<server>-<tool>`, Gemini's `mcp_<server>_<tool>`, droid's
 * `<server>___<tool>` and OpenCode's `<server>_<tool>`, and a
 * policy names it `mcp__<server>__<tool>` in every agent.
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-replaced-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function answer(host: Host, engine: HookEngine, raw: Record<string, unknown>) {
  const inputs = host.inputs({ cwd: root, session_id: 's', ...raw });
  const out = await answerHost(host, engine, inputs[0]!.hook_event_name as string, inputs);
  return out.stdout ? JSON.parse(out.stdout) : undefined;
}

const replacing = () =>
  new HookEngine().register({ name: 'replace', events: 'PostToolUse', handler: () => replaceOutput({ stdout: 'REPLACED' }) });
const bashAfter = (tool_name: string) => ({
  hook_event_name: 'PostToolUse',
  tool_name,
  tool_input: { command: 'echo ORIGINAL' },
  tool_response: { stdout: 'ORIGINAL\n' },
});

describe('a replaced tool output never reaches the model as the original', () => {
  it.each([
    ['codex', 'Bash'],
    ['copilot', 'bash'],
  ])('%s: the replacement is the reason of a PostToolUse block', async (agent, tool) => {
    const json = await answer(hostNamed(agent), replacing(), bashAfter(tool));
    expect(json.decision).toBe('block');
    expect(json.reason).toBe('{"stdout":"REPLACED"}');
    expect(JSON.stringify(json)).not.toContain('updatedToolOutput');
  });

  it('droid: the run ends before the model reads the output', async () => {
    const json = await answer(hostNamed('droid'), replacing(), bashAfter('Execute'));
    expect(json.continue).toBe(false);
    expect(json.stopReason).toMatch(/withheld the output of Execute/);
  });

  it('an output left as it is gets no block', async () => {
    const json = await answer(hostNamed('codex'), new HookEngine(), bashAfter('Bash'));
    expect(json?.decision).toBeUndefined();
  });
});

describe('an MCP tool is mcp__<server>__<tool> to the policy in every agent', () => {
  const refusing = () =>
    new HookEngine().register({
      name: 'no-mcp',
      events: 'PreToolUse',
      matcher: { tool: 'mcp__sentinel__touch' },
      handler: () => deny('no MCP'),
    });
  const called = (tool_name: string, extra: Record<string, unknown> = {}) => ({
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input: { name: 'x.txt' },
    ...extra,
  });

  it("Copilot's sentinel-touch", async () => {
    const json = await answer(hostNamed('copilot'), refusing(), called('sentinel-touch'));
    expect(json.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it("Gemini's mcp_sentinel_touch, named apart in mcp_context", async () => {
    const json = await answer(
      hostNamed('gemini'),
      refusing(),
      called('mcp_sentinel_touch', { hook_event_name: 'BeforeTool', mcp_context: { server_name: 'sentinel', tool_name: 'touch' } }),
    );
    expect(json.decision).toBe('deny');
  });

  it("Copilot: a configured server whose name holds '-' is split after it, not at the first '-'", () => {
    const home = path.join(root, 'copilot-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'mcp-config.json'), JSON.stringify({ mcpServers: { 'my-docs': { command: 'x' } } }));
    const input = copilotMcpTool({ tool_name: 'my-docs-resolve-library-id', cwd: root }, { COPILOT_HOME: home });
    expect(input.tool_name).toBe('mcp__my-docs__resolve-library-id');
    expect(input.agent_tool_name).toBe('my-docs-resolve-library-id');
    expect(copilotMcpTool({ tool_name: 'github-mcp-server-get_issue' }, { COPILOT_HOME: home }).tool_name).toBe(
      'mcp__github-mcp-server__get_issue',
    );
  });

  it("droid's sentinel___touch", async () => {
    const json = await answer(hostNamed('droid'), refusing(), called('sentinel___touch'));
    expect(json.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(hostNamed('droid').inputs({ hook_event_name: 'PreToolUse', tool_name: 'my_docs___get_page', tool_input: {} })[0]).toMatchObject({
      tool_name: 'mcp__my_docs__get_page',
      agent_tool_name: 'my_docs___get_page',
    });
  });

  it("Cline's sentinel__touch: refused, and Cline can only end the run", async () => {
    const host = hostNamed('cline');
    const raw = {
      hookName: 'PreToolUse',
      taskId: 't-mcp',
      workspaceRoots: [root],
      preToolUse: { toolName: 'sentinel__touch', parameters: { name: 'x.txt' } },
    };
    const inputs = host.inputs(raw);
    expect(inputs[0]).toMatchObject({ tool_name: 'mcp__sentinel__touch', agent_tool_name: 'sentinel__touch' });
    const out = await answerHost(host, refusing(), 'PreToolUse', inputs);
    expect(JSON.parse(out.stdout!)).toMatchObject({ cancel: true, errorMessage: expect.stringContaining('no MCP') });
  });

  it("droid's own tools keep their mapping", () => {
    expect(
      hostNamed('droid').inputs({ hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: 'ls' } })[0]!.tool_name,
    ).toBe('Bash');
  });

  it("OpenCode's sentinel_touch, sent through its plugin", async () => {
    const json = await answer(hostNamed('opencode'), refusing(), {
      hook: 'tool.execute.before',
      directory: root,
      sessionID: 's',
      tool: 'sentinel_touch',
      args: { name: 'x.txt' },
    });
    expect(json.deny).toBe('no MCP');
  });

  it("OpenCode: a configured server whose name holds '_' (or a character OpenCode replaces) is split after it", () => {
    const project = path.join(root, 'opencode-project');
    mkdirSync(path.join(project, '.opencode'), { recursive: true });
    writeFileSync(path.join(project, 'opencode.jsonc'), '{\n  // the docs server\n  "mcp": { "my_docs": { "type": "local" }, },\n}\n');
    const env = { HOME: path.join(root, 'no-home'), OPENCODE_CONFIG_CONTENT: JSON.stringify({ mcp: { 'team.db': {} } }) };
    const named = (tool_name: string) => openCodeMcpTool({ tool_name, cwd: project }, env);
    expect(named('my_docs_get_page')).toMatchObject({ tool_name: 'mcp__my_docs__get_page', agent_tool_name: 'my_docs_get_page' });
    expect(named('team_db_run_query').tool_name).toBe('mcp__team_db__run_query');
    expect(named('other_search').tool_name).toBe('mcp__other__search');
    for (const own of ['apply_patch', 'plan_exit', 'bash']) expect(named(own).tool_name).toBe(own);
  });

  it("Copilot's own tools keep their mapping", async () => {
    const json = await answer(
      hostNamed('copilot'),
      new HookEngine().register(pathGuard({ workspace: root })),
      called('create', { tool_input: { path: path.join(root, '.env.local'), file_text: 'A=1' } }),
    );
    expect(json.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});

describe("the Claude Code mod's folder is protected from the agent's file tools", () => {
  it('a Write into .claude/hookwise-mod/ is refused', async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: root }));
    const o = await engine.fire('PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: path.join(root, '.claude', 'hookwise-mod', 'mod.js'), content: 'export default {}' },
      cwd: root,
    });
    expect(o.decision).toBe('deny');
    expect(o.reason).toMatch(/protected file/);
  });
});
