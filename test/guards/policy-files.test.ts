import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import type { PolicyFile } from '../../src/core/spec.js';
import { pathGuard, shellGuard } from '../../src/guards/index.js';
import { codexInputs } from '../../src/hosts/codex/tools.js';
import { BIN, INTACT, loadInChild, writePolicyProject } from '../support/policy-project.js';
import { slack } from '../support/slack.js';

/**
 * Without the OS sandbox, the parser and the path guard are what stands between the
 * agent and the files the policy loads (issue 38): each write to one is refused with
 * a reason naming the policy and how a person changes it; the same write to a file
 * the policy does not load goes ahead.
 */
let ws: string;
let files: PolicyFile[];
let engine: HookEngine;
let config: string;
beforeAll(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-policy-guard-')));
  writePolicyProject(ws, { guards: true });
  const loaded = loadInChild(ws);
  expect(loaded.reason).toBe(INTACT);
  files = loaded.files;
  config = path.join(ws, 'hookwise.config.ts');
  engine = new HookEngine({ policyFiles: files });
  engine.register(pathGuard());
  engine.register(shellGuard({ sandbox: 'off' }));
}, slack(60_000));
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

const fire = (tool_name: string, tool_input: Record<string, unknown>) =>
  engine.fire('PreToolUse', { tool_name, tool_input, cwd: ws, session_id: 's' });
const LOADED = ['policy/rules.ts', 'policy/allow.json', 'packages/x/index.js'];

describe('file tools', () => {
  const writes: Array<[string, (file: string) => Record<string, unknown>]> = [
    ['Write', (file) => ({ file_path: file, content: 'export const reason = "evil";' })],
    ['Edit', (file) => ({ file_path: file, old_string: 'intact', new_string: 'broken' })],
    ['MultiEdit', (file) => ({ file_path: file, edits: [{ old_string: 'intact', new_string: 'broken' }] })],
    ['NotebookEdit', (file) => ({ notebook_path: file, new_source: 'x' })],
  ];
  for (const [tool, input] of writes) {
    it(`${tool} to a file the policy loads is refused, naming the policy and the fix; to a sibling it is not`, async () => {
      for (const name of LOADED) {
        const outcome = await fire(tool, input(path.join(ws, name)));
        expect(outcome.decision, name).toBe('deny');
        expect(outcome.reason).toContain(`the policy ${config} loads it`);
        expect(outcome.reason).toContain('a person changes it outside the agent, then runs `hookwise check`');
      }
      expect((await fire(tool, input(path.join(ws, 'policy', 'sibling.ts')))).decision).not.toBe('deny');
    });
  }

  it('apply_patch (Codex) that updates a file the policy loads is refused; one that adds a sibling is not', async () => {
    const patch = (header: string) => `*** Begin Patch\n${header}\n@@\n-x\n+y\n*** End Patch\n`;
    const judged = async (text: string) => {
      const decisions = [];
      for (const input of codexInputs({ tool_name: 'apply_patch', tool_input: { command: text }, cwd: ws }))
        decisions.push((await fire(input.tool_name!, input.tool_input!)).decision);
      return decisions;
    };
    expect(await judged(patch('*** Update File: policy/rules.ts'))).toContain('deny');
    expect(await judged(`*** Begin Patch\n*** Add File: policy/new.ts\n+export {};\n*** End Patch\n`)).not.toContain('deny');
  });

  it('the config itself is "hookwise\'s policy"', async () => {
    const outcome = await fire('Write', { file_path: config, content: '' });
    expect(outcome.reason).toContain("hookwise's policy; a person changes it outside the agent");
  });
});

describe('shell commands (no OS sandbox: the parser refuses)', () => {
  // Each attack, then the same shape aimed at the sibling nothing imports.
  const attacks: Array<[string, string | undefined]> = [
    ['sed -i s/intact/broken/ policy/rules.ts', 'sed -i s/intact/broken/ policy/sibling.ts'],
    ["echo 'export const reason = 1' > policy/rules.ts", "echo 'export const reason = 1' > policy/sibling.ts"],
    ['echo x | tee policy/allow.json', 'echo x | tee policy/sibling.ts'],
    ['cp README.md policy/rules.ts', 'cp README.md policy/sibling.ts'],
    ['mv evil.ts policy/rules.ts', 'mv evil.ts policy/sibling.ts'],
    ['sed -i s/from-x/evil/ packages/x/index.js', 'sed -i s/from-x/evil/ packages/x/package.json'],
    ["echo 'export const reason = 1' > policy/rules.js", "echo 'export const reason = 1' > policy/sibling.js"],
    ['sed -i s/intact/broken/ policy/*.ts', undefined],
    ['rm -rf policy && mkdir policy', undefined],
    ['mv policy policy-old', undefined],
    ['mv packages elsewhere', undefined],
  ];
  for (const [attack, control] of attacks) {
    it(`refuses \`${attack}\` as a write to the policy's files`, async () => {
      const outcome = await fire('Bash', { command: attack });
      expect(outcome.decision).toBe('deny');
      // A glob is refused for what it can match, named by the file's name.
      expect(outcome.reason).toContain(attack.includes('*') ? 'a glob that can match rules.ts' : `the policy ${config} loads`);
      if (attack.includes('rules.js'))
        expect(outcome.reason).toContain(`the loader would load in place of ${path.join(ws, 'policy', 'rules.ts')}`);
      if (control !== undefined)
        expect((await fire('Bash', { command: control })).reason ?? '').not.toContain(`the policy ${config} loads`);
    });
  }

  it('lets the sibling be written: the refusals come from the policy files, not from the folder', async () => {
    expect((await fire('Bash', { command: 'sed -i s/intact/broken/ policy/sibling.ts' })).decision).not.toBe('deny');
    expect((await fire('Bash', { command: "echo 'x' > policy/sibling.ts" })).decision).not.toBe('deny');
  });
});

describe('through the hook call a host makes (hookwise claude-code)', () => {
  it('a Write to an imported file is refused with the reason; to the sibling it is not', { timeout: slack(60_000) }, () => {
    const call = (file: string) => {
      const run = spawnSync(process.execPath, [BIN, 'claude-code'], {
        input: JSON.stringify({
          session_id: 's',
          cwd: ws,
          hook_event_name: 'PreToolUse',
          tool_name: 'Write',
          tool_input: { file_path: file, content: 'x' },
        }),
        encoding: 'utf8',
        cwd: ws,
        env: { ...process.env, CLAUDE_PROJECT_DIR: ws, HOOKWISE_CLAUDE_CODE: '' },
      });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout.trim() === '' ? undefined : (JSON.parse(run.stdout) as { hookSpecificOutput?: Record<string, string> });
    };
    const refused = call(path.join(ws, 'policy', 'rules.ts'))?.hookSpecificOutput;
    expect(refused?.permissionDecision).toBe('deny');
    expect(refused?.permissionDecisionReason).toContain(`the policy ${config} loads it`);
    expect(call(path.join(ws, 'policy', 'sibling.ts'))?.hookSpecificOutput?.permissionDecision).not.toBe('deny');
  });
});
