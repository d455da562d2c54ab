import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from './fixture.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/hookwise.js');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let f: Fixture;
beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist/cli/commands/guard.js')))
    throw new Error('dist/ is missing the guard command: run `npm run build` first');
  f = makeFixture();
});
afterAll(() => f.cleanup());

describe('hookwise guard', () => {
  it('shell: explains a denial and exits 2', async () => {
    const r = await run(['guard', 'shell', 'cd / && rm -rf etc', '--workspace', f.ws]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(`denied: \`rm -rf\` targets etc (/etc), outside the workspace ${f.ws}\n`);
  });

  it('shell: allows a harmless look-alike and exits 0', async () => {
    const r = await run(['guard', 'shell', 'grep -r "rm -rf" .', '--workspace', f.ws]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^allowed: /);
  });

  it('shell: --interactive asks (exit 2) and --json lists the findings', async () => {
    const r = await run(['guard', 'shell', 'eval "$X"', '-w', f.ws, '--interactive', '--json', '--no-sandbox']);
    expect(r.code).toBe(2);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ command: 'eval "$X"', decision: 'ask', workspace: f.ws });
    expect(body.findings[0]).toEqual({ level: 'unprovable', reason: '`eval "$X"` runs code only known when it runs' });
  });

  it('path: judges reads and writes relative to the workspace', async () => {
    const outside = await run(['guard', 'path', 'link-out/x.txt', '--write', '-w', f.ws]);
    expect(outside.code).toBe(2);
    expect(outside.stdout).toContain('through a symlink');
    const inside = await run(['guard', 'path', 'src/a.ts', '-w', f.ws]);
    expect(inside.code).toBe(0);
    expect(inside.stdout).toBe(`allowed: reading src/a.ts (${f.ws}/src/a.ts) is allowed\n`);
  });

  it('documents the exit codes in --help', async () => {
    const r = await run(['guard', 'shell', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit status: 0 when the guard allows it, 2 when it denies or would ask');
  });

  it('reports a usage error with exit 1', async () => {
    const r = await run(['guard', 'path', '', '-w', f.ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('hookwise: guard path: the path is empty; pass the path to judge\n');
  });
});
