import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slack } from '../support/slack.js';
import { builtinTools, confine, OutsideWorkspaceError, runShell, type Tool, type ToolContext } from '../../src/runtime/index.js';
import { tempDir } from './helpers.js';
import { rmSync } from 'node:fs';
import { alive } from '../support/processes.js';

let ws: string;
let outside: string;
let tools: Map<string, Tool>;
beforeEach(() => {
  ws = tempDir();
  outside = tempDir('hookwise-outside-');
  tools = new Map(builtinTools(ws, { shell: { timeoutMs: 5_000, killGraceMs: 100 } }).map((t) => [t.name, t]));
});
afterEach(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

let annotations: Record<string, unknown> = {};
function ctx(signal = new AbortController().signal): ToolContext {
  annotations = {};
  return {
    cwd: ws,
    signal,
    sessionId: 's',
    toolUseId: 't',
    notify: async () => {},
    fireHook: async () => {
      throw new Error('no hooks here');
    },
    annotate: (fields) => void Object.assign(annotations, fields),
    runSubagent: async () => {
      throw new Error('no subagents here');
    },
  };
}
const call = (name: string, input: Record<string, unknown>, c = ctx()) =>
  Promise.resolve(tools.get(name)!.run(tools.get(name)!.input.parse(input), c));

describe('built-in tools', () => {
  it('are named as in Claude Code', () => {
    expect([...tools.keys()]).toEqual(['Read', 'Write', 'Edit', 'LS', 'Bash', 'Task']);
  });

  it('Write, Read, Edit and LS work inside the workspace', async () => {
    expect(await call('Write', { file_path: 'src/a.ts', content: 'let x = 1;\nlet y = 2;\n' })).toBe('Wrote 22 bytes to src/a.ts');
    expect(await call('Read', { file_path: 'src/a.ts' })).toBe('let x = 1;\nlet y = 2;\n');
    expect(await call('Read', { file_path: path.join(ws, 'src/a.ts'), offset: 2, limit: 1 })).toBe('let y = 2;');
    expect(await call('Edit', { file_path: 'src/a.ts', old_string: 'x = 1', new_string: 'x = 10' })).toBe(
      'Edited src/a.ts: 1 replacement(s)',
    );
    expect(readFileSync(path.join(ws, 'src/a.ts'), 'utf8')).toBe('let x = 10;\nlet y = 2;\n');
    await expect(call('Edit', { file_path: 'src/a.ts', old_string: 'let', new_string: 'const' })).rejects.toThrow('occurs 2 times');
    expect(await call('Edit', { file_path: 'src/a.ts', old_string: 'let', new_string: 'const', replace_all: true })).toBe(
      'Edited src/a.ts: 2 replacement(s)',
    );
    await expect(call('Edit', { file_path: 'src/a.ts', old_string: 'nope', new_string: '' })).rejects.toThrow('old_string not found');
    expect(await call('LS', {})).toBe('src/');
    expect(await call('LS', { path: 'src' })).toBe('a.ts');
  });

  it('refuse paths outside the workspace: .., absolute, symlinks, dangling symlinks', async () => {
    writeFileSync(path.join(outside, 'secret'), 'top secret');
    symlinkSync(outside, path.join(ws, 'escape'));
    symlinkSync(path.join(outside, 'not-yet'), path.join(ws, 'dangling'));
    await expect(call('Read', { file_path: '../secret' })).rejects.toThrow(OutsideWorkspaceError);
    await expect(call('Read', { file_path: path.join(outside, 'secret') })).rejects.toThrow('resolves outside the workspace');
    await expect(call('Read', { file_path: 'escape/secret' })).rejects.toThrow('resolves outside the workspace');
    await expect(call('Write', { file_path: 'escape/new.txt', content: 'x' })).rejects.toThrow('resolves outside the workspace');
    await expect(call('Write', { file_path: 'dangling', content: 'x' })).rejects.toThrow('points nowhere');
    await expect(call('LS', { path: '..' })).rejects.toThrow('resolves outside the workspace');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'not-yet'))).toBe(false);
    // A symlink that stays inside is fine.
    mkdirSync(path.join(ws, 'real'));
    symlinkSync(path.join(ws, 'real'), path.join(ws, 'alias'));
    expect(confine(ws, 'alias/f.txt')).toBe(path.join(ws, 'real', 'f.txt'));
  });

  it("Bash runs in the workspace and answers in Claude Code's shape", async () => {
    writeFileSync(path.join(ws, 'marker'), '');
    const result = await call('Bash', { command: 'echo; ls; echo oops >&2; echo after; echo' });
    // One stream in the order written, blank lines at both ends removed (as in Claude Code).
    expect(result).toEqual({ stdout: 'marker\noops\nafter', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
    expect(annotations).toEqual({ exit_code: 0 });
    expect(await call('Bash', { command: 'mkdir d && touch d/f' })).toMatchObject({ stdout: '', noOutputExpected: true });
  });

  it('Bash: a non-zero exit is a failure "Exit code N" with the output, as in Claude Code', async () => {
    writeFileSync(path.join(ws, 'marker'), '');
    await expect(call('Bash', { command: 'ls; echo oops >&2; exit 3' })).rejects.toThrow(/^Exit code 3\nmarker\noops$/);
    expect(annotations).toEqual({ exit_code: 3 });
    await expect(call('Bash', { command: 'exit 1' })).rejects.toThrow(/^Exit code 1$/);
  });

  it('Bash: grep finding nothing (exit 1) is an answer, not a failure; exit 2 is a failure', async () => {
    writeFileSync(path.join(ws, 'notes.txt'), 'alpha\n');
    expect(await call('Bash', { command: 'grep beta notes.txt' })).toMatchObject({
      stdout: '',
      returnCodeInterpretation: 'No matches found',
    });
    expect(await call('Bash', { command: 'cat notes.txt | grep -c beta' })).toMatchObject({
      stdout: '0',
      returnCodeInterpretation: 'No matches found',
    });
    await expect(call('Bash', { command: 'grep beta missing.txt' })).rejects.toThrow(/^Exit code 2\n.*missing\.txt/);
    // The last command decides: grep is not last here.
    await expect(call('Bash', { command: 'grep beta notes.txt && echo found' })).rejects.toThrow(/^Exit code 1$/);
  });

  it('Bash caps its output', async () => {
    const result = (await runShell('yes hookwise | head -c 100000', {
      cwd: ws,
      timeoutMs: 5000,
      outputLimitBytes: 1000,
      killGraceMs: 100,
    })) as { stdout: string; truncated: boolean };
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('hookwise\n')).toBe(true);
    expect(result.stdout).toContain('[output truncated at 1000 bytes]');
    expect(result.stdout.length).toBeLessThan(1100);
  });

  it('Bash on timeout kills the whole process group, background children included', async () => {
    const pidFile = path.join(ws, 'child.pid');
    await expect(
      runShell(`sleep 30 & echo $! > ${pidFile}; wait`, { cwd: ws, timeoutMs: 300, outputLimitBytes: 1000, killGraceMs: 100 }),
    ).rejects.toThrow('timed out after 300 ms');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // The signal reaches the background child a moment after the shell is gone; left alone it would sleep 30 s.
    expect(await diesWithin(pid, slack(10_000))).toBe(true);
  });

  it('Bash on abort kills the command', async () => {
    const controller = new AbortController();
    const pidFile = path.join(ws, 'pid');
    const running = call('Bash', { command: `echo $$ > ${pidFile}; sleep 30` }, ctx(controller.signal));
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(running).rejects.toThrow('aborted');
    expect(await diesWithin(Number(readFileSync(pidFile, 'utf8')), slack(10_000))).toBe(true);
  });
});

/** Whether `pid` stops running within `ms` (a killed process needs a moment to be gone). */
async function diesWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
