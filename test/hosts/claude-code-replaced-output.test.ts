import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modSource } from '../../src/cli/init/mod-source.js';
import { answerHost, hostNamed } from '../../src/hosts/index.js';
import { HookEngine, replaceOutput } from '../../src/index.js';

/**
 * A replaced output in Claude Code (the settings drop-in and the mod share its answer):
 * Claude Code 2.1.328 ignores an `updatedToolOutput` that does not fit the tool's output
 * (the original reaches the model), so hookwise ends the run there; the mod carries a
 * fitting one into classic.PostToolUse's result, which it used to drop. Both seen with
 * the real CLI (`node test/agents/run.mjs --agent claude-code-mod --filter replacing`).
 */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-claude-replaced-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bashAfter = {
  hook_event_name: 'PostToolUse',
  cwd: root,
  session_id: 's',
  tool_name: 'Bash',
  tool_input: { command: 'echo ORIGINAL' },
  tool_response: { stdout: 'ORIGINAL\n', stderr: '', interrupted: false },
};

async function claudeAnswer(replacement: (input: Record<string, unknown>) => unknown, raw: Record<string, unknown> = bashAfter) {
  const host = hostNamed('claude-code');
  const engine = new HookEngine().register({ name: 'replace', events: 'PostToolUse', handler: (i) => replaceOutput(replacement(i)) });
  const out = await answerHost(host, engine, 'PostToolUse', host.inputs(raw));
  return out.stdout ? JSON.parse(out.stdout) : undefined;
}

describe('Claude Code: a replaced output it would ignore ends the run', () => {
  it('a string for Bash (not its {stdout, stderr, …}): continue false, nothing passed as updatedToolOutput', async () => {
    const json = await claudeAnswer(() => 'REPLACED');
    expect(json.continue).toBe(false);
    expect(json.stopReason).toMatch(/withheld the output of Bash/);
    expect(JSON.stringify(json)).not.toContain('updatedToolOutput');
  });

  it("a replacement in Bash's shape is passed on, and the run goes on", async () => {
    const json = await claudeAnswer((i) => ({ ...(i.tool_response as object), stdout: 'REPLACED' }));
    expect(json.continue).toBeUndefined();
    expect(json.hookSpecificOutput.updatedToolOutput.stdout).toBe('REPLACED');
  });

  it("an MCP tool's output takes any replacement", async () => {
    const json = await claudeAnswer(() => 'REPLACED', { ...bashAfter, tool_name: 'mcp__db__query', tool_response: { rows: [] } });
    expect(json.continue).toBeUndefined();
    expect(json.hookSpecificOutput.updatedMCPToolOutput).toBe('REPLACED');
  });
});

describe("the mod's classic.PostToolUse result", () => {
  const source = modSource({ events: [] });
  const body = source.slice(source.indexOf('const CONTEXT'), source.indexOf('let resident'));
  const helpers = source.slice(source.indexOf('const parsed'), source.indexOf("/** hookwise's result first"));
  const classicResult = new Function(`${body}\n${helpers}; return classicResult;`)() as (
    event: string,
    answer: { stdout?: string; code: number },
  ) => Record<string, unknown>;
  const answered = (specific: Record<string, unknown>) => ({
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', ...specific } }),
    code: 0,
  });

  it('carries updatedToolOutput and updatedMCPToolOutput', () => {
    expect(classicResult('PostToolUse', answered({ updatedToolOutput: { stdout: 'R' } })).updatedToolOutput).toEqual({ stdout: 'R' });
    expect(classicResult('PostToolUse', answered({ updatedMCPToolOutput: 'R' })).updatedMCPToolOutput).toBe('R');
  });

  it('carries an end of the run (the unfit replacement) as preventContinuation', () => {
    const result = classicResult('PostToolUse', { stdout: JSON.stringify({ continue: false, stopReason: 'withheld' }), code: 0 });
    expect(result).toMatchObject({ preventContinuation: true, stopReason: 'withheld' });
  });

  it('passes no output field on other events', () => {
    expect(classicResult('Stop', answered({ updatedToolOutput: 'R' })).updatedToolOutput).toBeUndefined();
  });
});
