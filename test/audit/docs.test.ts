import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAudit } from '../../src/audit/index.js';
import { tempDir } from './helpers.js';
import { runNode, type CliResult } from '../cli/run-cli.js';

// Runs the example of docs/audit.md as written, against dist/ (`npm run build` first).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(path.join(ROOT, 'docs', 'audit.md'), 'utf8');
const example = DOC.slice(DOC.indexOf('## A runnable example'));
const jsBlock = /```js\n([\s\S]*?)```/.exec(example)![1]!;
const shBlock = /```sh\n([\s\S]*?)```/.exec(example)![1]!;

function run(args: string[], cwd: string): Promise<CliResult> {
  return runNode(args, { cwd, unset: ['HOOKWISE_AUDIT_DB'] });
}

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

const coverageSection = DOC.slice(DOC.indexOf('## Tool executions and coverage'));
const coverageBlock = /```js\n([\s\S]*?)```/.exec(coverageSection)![1]!;

function localImports(source: string): string {
  return source
    .replace(`from 'hookwise/audit'`, `from '${pathToFileURL(path.join(ROOT, 'dist/audit/index.js')).href}'`)
    .replace(`from 'hookwise'`, `from '${pathToFileURL(path.join(ROOT, 'dist/index.js')).href}'`);
}

describe('docs/audit.md coverage example', () => {
  it('runs as written, prints what its comment says, and hookwise audit coverage exits 1 naming call_2', async () => {
    const { dir: here, cleanup: done } = tempDir();
    try {
      const source = localImports(coverageBlock);
      expect(source).not.toMatch(/from 'hookwise/);
      writeFileSync(path.join(here, 'coverage-example.mjs'), source);
      const result = await run(['coverage-example.mjs'], here);
      expect(result.stderr).toBe('');
      const expected = /\/\/ (2 1 .*)\n```/.exec(`${coverageBlock}\`\`\``)![1]!;
      expect(result.stdout).toBe(`${expected}\n`);
      const cli = await run([path.join(ROOT, 'bin', 'hookwise.js'), 'audit', 'coverage'], here);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain('uncovered seq 3 (Bash, session demo): no PreToolUse outcome allowed tool_use_id call_2');
    } finally {
      done();
    }
  });
});

describe('docs/audit.md example', () => {
  it('runs as written and prints what its comment says', async () => {
    const source = jsBlock
      .replace(`from 'hookwise/audit'`, `from '${pathToFileURL(path.join(ROOT, 'dist/audit/index.js')).href}'`)
      .replace(`from 'hookwise'`, `from '${pathToFileURL(path.join(ROOT, 'dist/index.js')).href}'`);
    expect(source).not.toMatch(/from 'hookwise/);
    writeFileSync(path.join(dir, 'audit-example.mjs'), source);
    const result = await run(['audit-example.mjs'], dir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('true 3\n');
    const rows = queryAudit(path.join(dir, '.hookwise', 'audit.db'));
    expect(rows.map((r) => [r.kind, r.decision, r.tool])).toEqual([
      ['outcome', 'allow', 'Bash'],
      ['tool', null, 'Bash'],
      ['outcome', 'deny', 'Bash'],
    ]);
    expect(rows[2]!.data).toMatchObject({ reason: 'rm -rf is not allowed', input: { tool_input: { command: 'rm -rf /' } } });
  });

  it('its hookwise audit commands work on the result', async () => {
    const commands = shBlock
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toHaveLength(4);
    const outputs: string[] = [];
    for (const command of commands) {
      const args = command.split(/\s+/);
      expect(args.slice(0, 2)).toEqual(['npx', 'hookwise']);
      const result = await run([path.join(ROOT, 'bin', 'hookwise.js'), ...args.slice(2)], dir);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      outputs.push(result.stdout);
    }
    expect(outputs[0]).toContain('3 records');
    expect(JSON.parse(outputs[1]!)).toMatchObject([{ decision: 'deny', data: { reason: 'rm -rf is not allowed' } }]);
    expect(readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(3);
    expect(outputs[3]).toMatch(/^ok: 3 rows, chain intact/);
  });
});
