import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { queryAudit, verifyAudit } from '../../src/audit/index.js';
import { cliPath, repoRoot, runNode } from '../cli/run-cli.js';
import { tempDir } from '../runtime/helpers.js';

// Runs the example of docs/approvals.md as written, against dist/ (`npm run build`
// first): the agent waits in one process, and its shell commands answer from another.

const DOC = readFileSync(path.join(repoRoot, 'docs', 'approvals.md'), 'utf8');
const example = DOC.slice(DOC.indexOf('## A runnable example'));
const jsBlock = /```js\n([\s\S]*?)```/.exec(example)![1]!;
const shBlock = /```sh\n([\s\S]*?)```/.exec(example)![1]!;
const printed = /```\n([\s\S]*?)```/.exec(example.slice(example.indexOf('The first terminal then prints')))![1]!;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function localImports(source: string): string {
  return source.replace(/from 'hookwise(\/[a-z]+)?'/g, (_, sub: string | undefined) => {
    const file = path.join(repoRoot, 'dist', sub ? sub.slice(1) : '', 'index.js');
    return `from '${pathToFileURL(file).href}'`;
  });
}

/** `npx hookwise a "b c"` -> the arguments after `npx hookwise`, quotes honoured, the comment dropped. */
function argsOf(line: string): string[] {
  const words = [...line.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  expect(words.slice(0, 2)).toEqual(['npx', 'hookwise']);
  return words.slice(2);
}

describe('docs/approvals.md', () => {
  it('keeps the section serve fills in', () => {
    expect(DOC).toContain('### The web page and HTTP API');
  });

  it('its example waits for the approval, the CLI answers it from another process, and it prints what the page says', async () => {
    const dir = tempDir('hookwise-approvals-doc-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const source = localImports(jsBlock);
    expect(source).not.toMatch(/from 'hookwise/);
    writeFileSync(path.join(dir, 'approvals-example.mjs'), source);

    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.HOOKWISE_AUDIT_DB;
    const child = spawn(process.execPath, ['approvals-example.mjs'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const id = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const waiting = /^waiting for approval (\w+)$/m.exec(stdout);
        if (waiting) resolve(waiting[1]!);
      });
      void exited.then((code) => reject(new Error(`the example ended (${code}) before it waited: ${stdout}${stderr}`)));
    });

    const commands = shBlock.split('\n').filter((line) => line.trim() !== '');
    expect(commands).toHaveLength(3);
    const outputs: string[] = [];
    for (const command of commands) {
      const args = argsOf(command).map((a) => (a === '<id>' ? id : a));
      const result = await runNode([cliPath, ...args], { cwd: dir, unset: ['HOOKWISE_AUDIT_DB'] });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      outputs.push(result.stdout);
    }
    expect(outputs[0]).toMatch(new RegExp(`^${id}\\s.*\\spending\\s.*\\sWrite\\s.*NOTES\\.md`, 'm'));
    expect(outputs[1]).toMatch(/^hook:\s+ask-before-writing$/m);
    expect(outputs[1]).toMatch(/^reason:\s+writes need a person$/m);
    expect(outputs[2]).toBe(`approved ${id} (Write) as alice\n`);

    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(printed.replaceAll('<id>', id));
    expect(readFileSync(path.join(dir, 'NOTES.md'), 'utf8')).toBe('# v2\n');
    const db = path.join(dir, '.hookwise', 'audit.db');
    expect(queryAudit(db, { kind: 'approval' }).map((r) => r.decision)).toEqual(['pending', 'approved']);
    expect(verifyAudit(db)).toMatchObject({ ok: true });
  });
});
