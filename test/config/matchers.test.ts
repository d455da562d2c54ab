import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineFor, loadConfig } from '../../src/config/load.js';

/**
 * Matchers as Claude Code evaluates them, through settings files: every group
 * prints its label as a systemMessage, so an outcome's systemMessage lists the groups that matched.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-matchers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// systemMessage: every event's output may carry one (PreCompact and StopFailure have no hookSpecificOutput).
const say = (label: string, _event: string) => `printf '%s' '{"systemMessage":"${label}"}'`;

async function engineWith(event: string, groups: Array<{ matcher?: string; if?: string; label: string }>) {
  const file = path.join(dir, `${event}-${Math.random().toString(36).slice(2)}.json`);
  const entries = groups.map((g) => ({
    ...(g.matcher !== undefined && { matcher: g.matcher }),
    hooks: [{ type: 'command', command: say(g.label, event), ...(g.if && { if: g.if }) }],
  }));
  writeFileSync(file, JSON.stringify({ hooks: { [event]: entries } }));
  return engineFor(await loadConfig({ files: [file], cwd: dir }));
}

async function matched(engine: Awaited<ReturnType<typeof engineWith>>, event: string, input: Record<string, unknown>) {
  return ((await engine.fire(event, { cwd: dir, ...input })).systemMessage ?? '').split('\n').filter(Boolean);
}

describe('tool matchers', () => {
  it('names, lists, unanchored regexes, MCP tools, "*" and ""', async () => {
    const engine = await engineWith('PreToolUse', [
      { matcher: 'Edit|Write', label: 'edit-or-write' },
      { matcher: 'Read, Grep', label: 'read-or-grep' },
      { matcher: 'Notebook.*', label: 'notebook-regex' },
      { matcher: 'mcp__memory__.*', label: 'memory-server' },
      { matcher: 'mcp__.*__write.*', label: 'any-mcp-write' },
      { matcher: '*', label: 'star' },
      { matcher: '', label: 'empty' },
      { label: 'absent' },
    ]);
    const all = ['star', 'empty', 'absent'];
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Write' })).toEqual(['edit-or-write', ...all]);
    // Exact names: MultiEdit is not Edit.
    expect(await matched(engine, 'PreToolUse', { tool_name: 'MultiEdit' })).toEqual(all);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Grep' })).toEqual(['read-or-grep', ...all]);
    // A regex is unanchored: it matches inside the name.
    expect(await matched(engine, 'PreToolUse', { tool_name: 'NotebookEdit' })).toEqual(['notebook-regex', ...all]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'mcp__memory__create_entities' })).toEqual(['memory-server', ...all]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'mcp__github__write_file' })).toEqual(['any-mcp-write', ...all]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'mcp__memory__write_note' })).toEqual([
      'memory-server',
      'any-mcp-write',
      ...all,
    ]);
  });
});

describe('filter fields per event', () => {
  it('SessionStart matches source', async () => {
    const engine = await engineWith('SessionStart', [
      { matcher: 'startup|resume', label: 'fresh' },
      { matcher: 'compact', label: 'compacted' },
    ]);
    expect(await matched(engine, 'SessionStart', { source: 'resume' })).toEqual(['fresh']);
    expect(await matched(engine, 'SessionStart', { source: 'clear' })).toEqual([]);
  });

  it('PreCompact matches trigger', async () => {
    const engine = await engineWith('PreCompact', [
      { matcher: 'manual', label: 'manual' },
      { matcher: 'auto', label: 'auto' },
    ]);
    expect(await matched(engine, 'PreCompact', { trigger: 'auto' })).toEqual(['auto']);
  });

  it('Notification matches notification_type', async () => {
    const engine = await engineWith('Notification', [
      { matcher: 'permission_prompt', label: 'asks' },
      { matcher: 'idle_prompt', label: 'idle' },
    ]);
    expect(await matched(engine, 'Notification', { notification_type: 'idle_prompt' })).toEqual(['idle']);
  });

  it('SubagentStart and SubagentStop match agent_type', async () => {
    const engine = await engineWith('SubagentStop', [
      { matcher: 'Explore', label: 'explorer' },
      { matcher: 'Plan', label: 'planner' },
    ]);
    expect(await matched(engine, 'SubagentStop', { agent_type: 'Plan' })).toEqual(['planner']);
  });

  it('StopFailure matches error', async () => {
    const engine = await engineWith('StopFailure', [
      { matcher: 'rate_limit', label: 'rate' },
      { matcher: 'billing_error', label: 'billing' },
    ]);
    expect(await matched(engine, 'StopFailure', { error: 'rate_limit' })).toEqual(['rate']);
  });

  it('events without a filter field ignore the matcher', async () => {
    const engine = await engineWith('UserPromptSubmit', [{ matcher: 'Bash', label: 'always' }]);
    expect(await matched(engine, 'UserPromptSubmit', { prompt: 'hello' })).toEqual(['always']);
  });
});

describe('the `if` field of a handler entry (permission-rule syntax)', () => {
  it('Bash(...) checks every subcommand of the line', async () => {
    const engine = await engineWith('PreToolUse', [
      { matcher: 'Bash', if: 'Bash(rm *)', label: 'rm' },
      { matcher: 'Bash', if: 'Bash(git push*)', label: 'push' },
    ]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls && rm -rf build' } })).toEqual(['rm']);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo $(git push origin)' } })).toEqual([
      'push',
    ]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo rm -rf' } })).toEqual([]);
  });

  it('Edit(*.ts) matches files by glob, any depth, and covers Write', async () => {
    const engine = await engineWith('PreToolUse', [{ matcher: 'Edit|Write', if: 'Edit(*.ts)', label: 'ts' }]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'src', 'a.ts') } })).toEqual([
      'ts',
    ]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'b.ts' } })).toEqual(['ts']);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: 'a.js' } })).toEqual([]);
  });

  it('`if` without a group matcher', async () => {
    const engine = await engineWith('PreToolUse', [{ if: 'mcp__github', label: 'github' }]);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'mcp__github__create_issue', tool_input: {} })).toEqual(['github']);
    expect(await matched(engine, 'PreToolUse', { tool_name: 'mcp__gitlab__create_issue', tool_input: {} })).toEqual([]);
  });
});
