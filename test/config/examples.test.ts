import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineFor, loadConfig } from '../../src/config/load.js';
import type { Outcome } from '../../src/core/outcome.js';
import { REPO } from './helpers.js';

/**
 * docs/claude-code.md's migration: examples/claude-code/.claude/settings.json (shell
 * scripts) and examples/claude-code/hookwise.config.ts (typed hooks) are the same
 * policy. Both are fired with the same inputs and must decide the same.
 */
const dir = path.join(REPO, 'examples', 'claude-code');

const cases: Array<[string, string, Record<string, unknown>]> = [
  ['recursive delete', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } }],
  ['harmless command', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls -la' } }],
  ['write to .env', 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: path.join(dir, '.env.local'), content: 'A=1' } }],
  [
    'edit of a source file',
    'PreToolUse',
    { tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'src', 'a.ts'), old_string: 'a', new_string: 'b' } },
  ],
  ['prompt', 'UserPromptSubmit', { prompt: 'add a feature' }],
  ['first stop', 'Stop', { stop_hook_active: false }],
  ['second stop', 'Stop', { stop_hook_active: true }],
];

const decisionOf = (o: Outcome) => ({
  decision: o.decision,
  blocked: o.blocked,
  reason: o.reason,
  stop: o.stop,
  additionalContext: o.additionalContext,
  updatedInput: o.updatedInput,
});

describe('the migration example: settings.json and hookwise.config.ts decide the same', async () => {
  const settings = engineFor(await loadConfig({ files: [path.join(dir, '.claude', 'settings.json')], cwd: dir }));
  const typed = engineFor(await loadConfig({ files: [path.join(dir, 'hookwise.config.ts')], cwd: dir }));

  it.each(cases)('%s', async (_name, event, input) => {
    const full = { session_id: 'example', cwd: dir, ...input };
    const fromSettings = decisionOf(await settings.fire(event, full));
    const fromTyped = decisionOf(await typed.fire(event, full));
    expect(fromTyped).toEqual(fromSettings);
  });

  it('and the decisions are the intended ones', async () => {
    const fire = (i: number) => typed.fire(cases[i]![1], { session_id: 'example', cwd: dir, ...cases[i]![2] });
    expect((await fire(0)).reason).toBe('Destructive command blocked: rm -rf');
    expect((await fire(1)).decision).toBeNull();
    expect((await fire(2)).reason).toBe('Refusing to edit .env files');
    expect((await fire(4)).additionalContext).toBe('Conventions: use pnpm, never npm.');
    expect((await fire(5)).reason).toBe('Run the tests before stopping.');
    expect((await fire(6)).blocked).toBe(false);
  });
});
