import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../audit/helpers.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

// Runs every example of docs/testing.md as written: files are written, commands run
// through the built CLI (`npx hookwise` is bin/hookwise.js), outputs compared.
const DOC = readFileSync(path.join(repoRoot, 'docs', 'testing.md'), 'utf8');
type Block = { kind: string; arg: string; text: string };
const blocks: Block[] = [...DOC.matchAll(/<!-- docs-test: (\w+) ?(\S*) -->\n```\w+\n([\s\S]*?)```/g)].map((m) => ({
  kind: m[1]!,
  arg: m[2]!,
  text: m[3]!,
}));
const files = blocks.filter((b) => b.kind === 'file');
const runs = blocks.filter((b) => b.kind === 'run');
const outputs = blocks.filter((b) => b.kind === 'output');

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'replay', 'claude-code-2.1.197-session.jsonl');
const PROJECT = '/home/me/project';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  for (const f of files) writeFileSync(path.join(dir, f.arg), f.text);
});
afterAll(() => cleanup());

/** A shell line of the page as CLI arguments (single quotes kept together). */
function argsOf(line: string): string[] {
  const words = [...line.trim().matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  expect(words.slice(0, 2)).toEqual(['npx', 'hookwise']);
  return words.slice(2);
}

const durations = (text: string) => text.replace(/\d+\.\d\d ms/g, 'N ms');

describe('docs/testing.md', { timeout: slack(120_000) }, () => {
  it('has the blocks this test runs', () => {
    expect(files.map((f) => f.arg)).toEqual(['hookwise.config.mjs', 'main.policy-test.yaml', 'typed.policy-test.ts']);
    expect(runs).toHaveLength(3);
    expect(outputs).toHaveLength(3);
  });

  it('writing policy tests: the output shown, and the TypeScript cases pass too', async () => {
    const shown = await runCli(argsOf(runs[0]!.text).concat('main.policy-test.yaml'), { cwd: dir });
    expect(shown.stdout).toBe(outputs[0]!.text);
    expect(shown.code).toBe(0);
    const all = await runCli(argsOf(runs[0]!.text), { cwd: dir });
    expect(all.stdout).toContain('ok    typed.policy-test.ts > web access is refused');
    expect(all.stdout).toContain('5 cases: 5 passed, 0 failed (2 files)');
  });

  it('the failure shown is what a changed policy prints', async () => {
    const config = path.join(dir, 'hookwise.config.mjs');
    const original = readFileSync(config, 'utf8');
    try {
      writeFileSync(config, original.replace('git push .*--force', 'git push .*--no-such-flag'));
      const r = await runCli(['test', 'main.policy-test.yaml'], { cwd: dir });
      expect(r.code).toBe(1);
      const failure = /A failing case prints its diff, and the run exits 1:\n\n```text\n([\s\S]*?)```/.exec(DOC)![1]!;
      expect(r.stdout).toContain(failure);
    } finally {
      writeFileSync(config, original);
    }
  });

  it('replaying a week of sessions: the one difference shown', async () => {
    // A week of one session, as real Claude Code wrote it, its calls renamed to this page's story.
    const week = path.join(dir, 'projects', '-home-me-project');
    mkdirSync(week, { recursive: true });
    const recorded = readFileSync(FIXTURE, 'utf8');
    const sessionId = /"sessionId":"([0-9a-f-]{36})"/.exec(recorded)![1]!;
    const session = recorded
      .replaceAll(sessionId, '5f0c2a9e-0000-4000-8000-000000000001')
      .replaceAll('rm -f victim.txt', 'git push --force origin main')
      .replaceAll('REFUSED-rm: no deleting here', 'force-push is not allowed here')
      .replaceAll('touch made.txt', 'git push origin main');
    writeFileSync(path.join(week, '5f0c2a9e-0000-4000-8000-000000000001.jsonl'), session);
    const config = path.join(dir, 'hookwise.config.mjs');
    const original = readFileSync(config, 'utf8');
    try {
      // The page's "tightened to refuse every push".
      writeFileSync(config, original.replace('git push .*--force', 'git push'));
      const args = argsOf(runs[1]!.text).map((a) => (a === '~/.claude/projects/-home-me-project/' ? week : a));
      const r = await runCli(args, { cwd: dir });
      expect(r.stdout).toBe(outputs[1]!.text);
      expect(r.code).toBe(1);
      // The unchanged policy decides the session as it happened.
      writeFileSync(config, original);
      const same = await runCli(args, { cwd: dir });
      expect(same.code).toBe(0);
    } finally {
      writeFileSync(config, original);
    }
  });

  it("reading explain's output: the output shown", async () => {
    const r = await runCli(argsOf(runs[2]!.text), { cwd: dir });
    expect(r.code).toBe(0);
    expect(durations(r.stdout.replaceAll(dir, PROJECT))).toBe(durations(outputs[2]!.text));
  });
});
