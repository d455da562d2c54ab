import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { HookEngine } from '../../src/core/engine.js';
import { checkpointGuard } from '../../src/guards/checkpoint-guard.js';
import { provesReadOnly } from '../../src/guards/checkpoint/read-only.js';
import { ParsedScripts } from '../../src/shell/parsed.js';
import { loadBashParser, type Parser } from '../../src/shell/parser.js';

let parser: Parser;
const scripts = new ParsedScripts();
beforeAll(async () => {
  parser = await loadBashParser();
});

describe('what the parser proves read-only (no checkpoint needed)', () => {
  const readOnly = [
    'ls -la',
    'cat src/a.ts | grep -n foo | head -20',
    'wc -l a.txt 2>/dev/null',
    'find . -name "*.ts" -type f',
    'rg -n TODO src',
    'diff a.txt b.txt; echo done',
    'sort names.txt | uniq -c',
    'cd src && ls',
    'tail -n 50 log.txt 2>&1',
  ];
  // Anything that writes, runs another program or depends on a value only known when it runs.
  const writes = [
    'echo hi > out.txt',
    'cat a >> b',
    'find . -name "*.o" -delete',
    'find . -exec rm {} +',
    'sort -o sorted.txt names.txt',
    'sort -ro sorted.txt names.txt',
    'uniq in.txt out.txt',
    'git status',
    'git log --oneline',
    'rg --pre ./x pattern',
    'PATH=./bin ls',
    'ls $DIR',
    'wc -l $(echo)',
    'cat $(rm -rf src)',
    'cat <(rm -rf src)',
    'f() { ls; }; f',
    'xargs rm < list',
    'sed -n 1p a.txt',
    'awk "{print}" a.txt',
    'tee out.txt < in.txt',
    'env rm -rf .',
    'date -s now',
    'tree -o out.txt',
    'ls >&out.txt',
    'rm -rf x',
    'ls; rm x',
    '',
  ];
  for (const command of readOnly) it(`read-only: ${command}`, () => expect(provesReadOnly(parser, scripts, command)).toBe(true));
  for (const command of writes)
    it(`not proven: ${JSON.stringify(command)}`, () => expect(provesReadOnly(parser, scripts, command)).toBe(false));
});

describe('checkpointGuard in an engine', () => {
  let ws: string;
  let state: string;
  beforeAll(() => {
    ws = mkdtempSync(path.join(os.tmpdir(), 'hookwise-cpguard-'));
    state = mkdtempSync(path.join(os.tmpdir(), 'hookwise-cpstate-'));
    execFileSync('git', ['init', '-q', '.'], { cwd: ws });
    writeFileSync(path.join(ws, 'notes.md'), 'work in progress\n');
  });
  afterAll(() => {
    rmSync(ws, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  });

  const engineWith = (options: Parameters<typeof checkpointGuard>[0] = {}) => {
    const engine = new HookEngine();
    engine.register(checkpointGuard(options));
    return engine;
  };
  const fire = (engine: HookEngine, event: string, tool: string, toolInput: Record<string, unknown>, id: string) =>
    engine.fire(event, { session_id: 's', tool_name: tool, tool_input: toolInput, tool_use_id: id, cwd: ws }, { projectDir: ws });

  it('keeps a checkpoint before a write, none before a read, and records the change set after', async () => {
    const engine = engineWith();
    const pre = await fire(engine, 'PreToolUse', 'Bash', { command: 'rm notes.md' }, 'a');
    expect(pre.blocked).toBe(false);
    const n = pre.hooks.find((h) => h.last)?.checkpoint;
    expect(typeof n).toBe('number');
    const read = await fire(engine, 'PreToolUse', 'Bash', { command: 'ls -la' }, 'b');
    expect(read.hooks.find((h) => h.last)?.checkpoint).toBe('read-only');
    expect((await fire(engine, 'PreToolUse', 'Read', { file_path: 'notes.md' }, 'c')).hooks).toEqual([]);
    rmSync(path.join(ws, 'notes.md'));
    const post = await fire(engine, 'PostToolUse', 'Bash', { command: 'rm notes.md' }, 'a');
    expect(post.hooks[0]).toMatchObject({ step: n, changes: { summary: '+0 ~0 -1, 17 B', lost: ['notes.md'] } });
    expect(post.additionalContext).toMatch(/step \d+ deleted or emptied a file that git cannot restore \(notes\.md\).*hookwise undo/);
    expect(post.systemMessage).toBe(post.additionalContext);
    await new Checkpoints(ws).undo();
  });

  it("onLoss 'deny' undoes the step at once and says so; 'ask' stops the agent", async () => {
    const deny = engineWith({ onLoss: 'deny' });
    await fire(deny, 'PreToolUse', 'Bash', { command: 'rm notes.md' }, 'd');
    rmSync(path.join(ws, 'notes.md'));
    const post = await fire(deny, 'PostToolUse', 'Bash', { command: 'rm notes.md' }, 'd');
    expect(post.additionalContext).toMatch(/hookwise undid it/);
    expect(execFileSync('cat', ['notes.md'], { cwd: ws }).toString()).toBe('work in progress\n');
    const ask = engineWith({ onLoss: 'ask' });
    await fire(ask, 'PreToolUse', 'Bash', { command: ': > notes.md' }, 'e');
    writeFileSync(path.join(ws, 'notes.md'), '');
    const stopped = await fire(ask, 'PostToolUse', 'Bash', { command: ': > notes.md' }, 'e');
    expect(stopped.stop).toBe(true);
    expect(stopped.stopReason).toMatch(/A person decides/);
    await new Checkpoints(ws).undo();
  });

  it('refuses the step when no checkpoint can be taken', async () => {
    const engine = new HookEngine();
    engine.register(checkpointGuard());
    const outcome = await engine.fire('PreToolUse', { session_id: 's', tool_name: 'Write', tool_input: { file_path: 'x', content: 'y' } });
    expect(outcome.decision).toBe('deny');
    expect(outcome.reason).toMatch(/no workspace/);
  });

  it('rejects an onLoss it does not know, when the policy is made', () => {
    expect(() => checkpointGuard({ onLoss: 'warn' as never })).toThrow(/onLoss must be 'tell', 'ask' or 'deny'/);
  });

  it('tells nothing after a move, nor after git beside readers; tells a change to .git by other means', async () => {
    const engine = engineWith();
    const step = async (command: string, id: string) => {
      await fire(engine, 'PreToolUse', 'Bash', { command }, id);
      execFileSync('bash', ['-c', command], { cwd: ws });
      return fire(engine, 'PostToolUse', 'Bash', { command }, id);
    };
    // An untracked file moved: its bytes are still in the workspace.
    expect((await step('mv notes.md moved.md', 'm1')).additionalContext).toBeNull();
    expect((await step('mv moved.md notes.md', 'm2')).additionalContext).toBeNull();
    await step('git add notes.md', 'g1');
    writeFileSync(path.join(ws, 'notes.md'), 'work in progress, and more\n');
    // git rewrites its index; sort only reads.
    expect((await step('git add notes.md | sort', 'g2')).additionalContext).toBeNull();
    const other = await step("printf '[x]\\n' >> .git/config", 'o1');
    expect(other.additionalContext).toMatch(/\.git/);
    await new Checkpoints(ws).undo({ to: other.hooks[0]!.step as number });
  });
});
