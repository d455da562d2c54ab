import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { tempDir } from '../audit/helpers.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

const POLICY = `export default { hooks: [
  { name: 'no-rm', events: 'PreToolUse', matcher: { tool: 'Bash', command: '\\\\brm\\\\b' }, handler: () => ({ decision: 'deny', reason: 'refused: rm deletes files' }) },
  { name: 'add-note', events: 'UserPromptSubmit', handler: (i) => ({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'session ' + i.session_id + ' in ' + i.cwd } }) },
  { name: 'quote-paths', events: 'PreToolUse', matcher: 'Write', handler: (i) => ({ kind: 'modify', updatedInput: { ...i.tool_input, file_path: i.tool_input.file_path.trim() } }) },
  { name: 'never-used', events: 'PreToolUse', matcher: 'WebFetch', handler: () => undefined },
] };
`;

const CASES = `# cases for the policy beside this file
policy: [hookwise.config.mjs]
cases:
  - name: rm is refused
    event: PreToolUse
    input: { tool_name: Bash, tool_input: { command: rm -rf build } }
    expect: { decision: deny, reason: /rm deletes/, hook: no-rm }
  - name: ls goes ahead
    event: PreToolUse
    input: { tool_name: Bash, tool_input: { command: ls } }
    expect: { decision: null, blocked: false, hook: null }
  - name: prompts get a note with the host's fields
    event: UserPromptSubmit
    input: { prompt: hello }
    expect: { additionalContext: /^session policy-test in \\// }
  - name: paths are trimmed
    event: PreToolUse
    input: { tool_name: Write, tool_input: { file_path: " a.txt ", content: x } }
    expect: { updatedInput: { file_path: a.txt, content: x }, hook: quote-paths }
`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(path.join(dir, 'hookwise.config.mjs'), POLICY);
  writeFileSync(path.join(dir, 'main.policy-test.yaml'), CASES);
});
afterEach(() => cleanup());

const test = (args: string[]) => runCli(['test', ...args], { cwd: dir });

describe('hookwise test', { timeout: slack(120_000) }, () => {
  it('passes every case, exit 0, and lists the hook no case exercised', async () => {
    const r = await test([]);
    expect(r.stdout).toContain('4 cases: 4 passed, 0 failed (1 file)');
    expect(r.stdout).toMatch(/coverage: 1 hook no case exercised:\n {2}- never-used {2}\(hookwise\.config\.mjs hooks\[3\]\)/);
    expect(r.code).toBe(0);
  });

  it('fails the run on a changed decision and prints the diff', async () => {
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), POLICY.replace('brm', 'bshred'));
    const r = await test(['main.policy-test.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  main.policy-test.yaml > rm is refused  (cases[0], PreToolUse)');
    expect(r.stdout).toContain('decision:\n          - expected "deny"\n          + actual   null');
    expect(r.stdout).toContain('reason:\n          - expected "/rm deletes/"\n          + actual   null');
    expect(r.stdout).toContain('4 cases: 3 passed, 1 failed');
  });

  it('--reporter junit writes JUnit XML that a JUnit schema accepts, failures included', async () => {
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), POLICY.replace("'refused: rm deletes files'", '\'<gone> & "quoted"\''));
    const r = await test(['--reporter', 'junit']);
    expect(r.code).toBe(1);
    const xsd = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'junit', 'junit.xsd'), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: r.stdout }], schema: [xsd] });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(r.stdout).toContain('<testcase name="rm is refused" classname="main.policy-test.yaml"');
    expect(r.stdout).toContain(
      '<failure message="reason differ" type="mismatch">reason: expected &quot;/rm deletes/&quot;, actual &quot;&lt;gone&gt; &amp; \\&quot;quoted\\&quot;&quot;</failure>',
    );
    // The schema check is not vacuous: the same report with a testcase missing its name is refused.
    const broken = await validateXML({
      xml: [{ fileName: 'broken.xml', contents: r.stdout.replace(' name="rm is refused"', '') }],
      schema: [xsd],
    });
    expect(broken.valid).toBe(false);
  });

  it('--update writes the current answers into the cases, keeping the comments', async () => {
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), POLICY.replace("'refused: rm deletes files'", "'refused: use trash instead'"));
    const u = await test(['--update']);
    expect(u.stderr).toContain('updated 1 case in');
    const text = readFileSync(path.join(dir, 'main.policy-test.yaml'), 'utf8');
    expect(text).toContain('# cases for the policy beside this file');
    expect(text).toContain('reason: "refused: use trash instead"');
    const r = await test([]);
    expect(r.code).toBe(0);
  });

  it('JSON and TypeScript (definePolicyTest) cases run too', async () => {
    writeFileSync(
      path.join(dir, 'more.policy-test.json'),
      JSON.stringify({
        cases: [
          {
            name: 'rm in json',
            event: 'PreToolUse',
            input: { tool_name: 'Bash', tool_input: { command: 'rm x' } },
            expect: { decision: 'deny' },
          },
        ],
      }),
    );
    writeFileSync(
      path.join(dir, 'typed.policy-test.ts'),
      `import { definePolicyTest } from 'hookwise';\nexport default definePolicyTest({ cases: [{ name: 'rm in ts', event: 'PreToolUse', input: { tool_name: 'Bash', tool_input: { command: 'rm y' } }, expect: { decision: 'deny', hook: 'no-rm' } }] });\n`,
    );
    const r = await test([]);
    expect(r.stdout).toContain('ok    more.policy-test.json > rm in json');
    expect(r.stdout).toContain('ok    typed.policy-test.ts > rm in ts');
    expect(r.stdout).toContain('6 cases: 6 passed, 0 failed (3 files)');
    expect(r.code).toBe(0);
  });
});

describe('hookwise test: where the policy comes from', { timeout: slack(120_000) }, () => {
  it("a test file in a subfolder runs against the project's policy, found where hookwise test runs", async () => {
    mkdirSync(path.join(dir, 'policy-tests'));
    writeFileSync(path.join(dir, 'policy-tests', 'nested.policy-test.yaml'), CASES.replace('policy: [hookwise.config.mjs]\n', ''));
    const r = await test(['policy-tests']);
    expect(r.stdout).toContain('4 cases: 4 passed, 0 failed (1 file)');
    expect(r.code).toBe(0);
  });

  it('no policy at all is a usage error, not a run of failing cases', async () => {
    mkdirSync(path.join(dir, 'empty'));
    writeFileSync(path.join(dir, 'empty', 'lonely.policy-test.yaml'), CASES.replace('policy: [hookwise.config.mjs]\n', ''));
    const r = await runCli(['test'], { cwd: path.join(dir, 'empty'), env: { HOME: path.join(dir, 'empty') } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/lonely\.policy-test\.yaml policy: no policy found in .*empty; run hookwise test from the project folder/);
  });
});

describe('hookwise test: bad inputs are one line and exit 2', { timeout: slack(120_000) }, () => {
  const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

  it('a missing file', async () => {
    const r = await test(['nope.policy-test.yaml']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/nope\.policy-test\.yaml: no such file or folder/);
  });

  it('an unknown event, naming the case and the near miss', async () => {
    writeFileSync(path.join(dir, 'main.policy-test.yaml'), CASES.replace('event: UserPromptSubmit', 'event: userpromptsubmit'));
    const r = await test([]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/main\.policy-test\.yaml cases\[2\]\.event: .*UserPromptSubmit/);
  });

  it('a policy that fails to load', async () => {
    writeFileSync(path.join(dir, 'hookwise.config.mjs'), 'export default { hooks: [ { events: "PreToolUse" } ] };\n');
    const r = await test([]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain('hookwise.config.mjs');
  });

  it('an unknown expectation', async () => {
    writeFileSync(path.join(dir, 'main.policy-test.yaml'), CASES.replace('hook: no-rm', 'hooks: no-rm'));
    const r = await test([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cases\[0\]\.expect\.hooks: unknown expectation; expected one of decision, blocked, reason/);
  });
});
