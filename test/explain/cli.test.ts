import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../audit/helpers.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

const guards = pathToFileURL(path.join(repoRoot, 'dist', 'guards', 'index.js')).href;
const POLICY = `import { shellGuard } from '${guards}';
export default { hooks: [
  shellGuard({ sandbox: 'off' }),
  { name: 'note', events: 'PreToolUse', handler: () => ({ kind: 'context', additionalContext: 'be careful' }) },
  { name: 'web-only', events: 'PreToolUse', matcher: 'WebFetch', handler: () => ({ kind: 'deny', reason: 'no web' }) },
] };
`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(path.join(dir, 'hookwise.config.mjs'), POLICY);
});
afterEach(() => cleanup());

const explain = (args: string[], stdin?: string) => runCli(['explain', ...args], { cwd: dir, stdin });

describe('hookwise explain', { timeout: slack(120_000) }, () => {
  it('a refusal: sources, every hook in run order with its matcher result, verdict and duration, the guard finding, the merge', async () => {
    const r = await explain(['PreToolUse', '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}']);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/sources loaded:\n {2}module +.*hookwise\.config\.mjs/);
    expect(out).toMatch(/1\. guard:shell: matched, ok → deny \d+\.\d\d ms/);
    expect(out).toMatch(/returned \{"kind":"deny","reason":"`rm -rf` targets \/, outside the workspace/);
    expect(out).toContain('looked at tool_input.command, parsed as bash');
    expect(out).toContain('2. note: selected, not run: the chain ended before it');
    expect(out).toContain('3. web-only: matcher did not select it');
    expect(out).toContain('decision deny: the strongest of guard:shell=deny (allow < ask < defer < deny)');
    expect(out).toContain('outcome: decision deny, blocked, decided by guard:shell');
  });

  it('an allowed call, input on stdin, as JSON: the context merged from the hook that added it', async () => {
    const r = await explain(['PreToolUse', '--json'], '{"tool_name":"Bash","tool_input":{"command":"ls"}}');
    expect(r.code).toBe(0);
    const e = JSON.parse(r.stdout);
    expect(e.hooks.map((h: { name: string; matched: boolean; result: string | null }) => [h.name, h.matched, h.result])).toEqual([
      ['guard:shell', true, 'none'],
      ['note', true, 'context'],
      ['web-only', false, null],
    ]);
    expect(e.outcome).toMatchObject({ decision: null, blocked: false, additionalContext: 'be careful' });
    expect(e.merge).toEqual(["additional context: every hook's, joined in run order"]);
    expect(e.hooks[0].durationMs).toBeGreaterThanOrEqual(0);
    // The host's fields were filled in as Claude Code fills them.
    expect(e.outcome.event).toBe('PreToolUse');
  });
});

describe('hookwise explain: bad inputs are one line and exit 2', { timeout: slack(120_000) }, () => {
  const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);
  it('an unknown event', async () => {
    const r = await explain(['pretooluse', '{}']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain('did you mean "PreToolUse"?');
  });
  it('an input that is not JSON', async () => {
    const r = await explain(['PreToolUse', 'nope']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain('input: not JSON');
  });
  it('a missing config file', async () => {
    const r = await explain(['PreToolUse', '{}', '--config', 'missing.mjs']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/missing\.mjs.*file not found/);
  });
  it('a policy that fails to load', async () => {
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), 'throw new Error("broken on purpose");\n');
    const r = await explain(['PreToolUse', '{}']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain('broken on purpose');
  });
});
