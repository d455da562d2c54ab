import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/core/spec.js';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { resolveSandbox, Sandbox } from '../../src/sandbox/index.js';
import { INTACT, loadInChild, writePolicyProject } from '../support/policy-project.js';
import { slack } from '../support/slack.js';
import { makeRange, type Range } from './harness.js';

/**
 * The OS sandbox against the files a policy loads (issue 38), with real bubblewrap:
 * commands the parser never sees (here, run straight in the sandbox's line) try to
 * change what the next hook call loads. After each, the policy is loaded again in a
 * process of its own, as the next hook call loads it, and its rule must be intact and
 * every file's bytes unchanged. The control: the same commands, aimed at the sibling
 * nothing imports, do change it, in the same sandbox.
 */
let r: Range;
let files: PolicyFile[];
let sandbox: Sandbox;
const EVIL = `export const reason: string = 'evil';`;

beforeAll(async () => {
  r = await makeRange();
  writePolicyProject(r.ws);
  const loaded = loadInChild(r.ws);
  expect(loaded.reason).toBe(INTACT);
  files = loaded.files;
  sandbox = new Sandbox(resolveSandbox({}, 'test')!);
}, slack(60_000));
afterAll(async () => {
  await r.cleanup();
});

/** The bytes of each of the policy's files, as they sit in `ws` (the project, or a copy of it); null when missing. */
function bytesIn(ws: string): Record<string, Buffer | null> {
  return Object.fromEntries(
    files.map((f) => {
      const rel = path.relative(r.ws, f.path);
      const at = path.join(ws, rel);
      return [rel, fs.existsSync(at) ? fs.readFileSync(at) : null];
    }),
  );
}

/** Run one command line as the host runs the guard's line: inside the sandbox of `ws`, told of `policyFiles`. */
function inSandbox(command: string, ws = r.ws, policyFiles: PolicyFile[] = files) {
  const { line } = sandbox.wrap(command, new PathPolicy({ workspace: ws, home: r.home }, [], policyFiles), r.env);
  return spawnSync('/bin/bash', ['-c', line], { cwd: ws, env: r.env, encoding: 'utf8' });
}

describe('in the OS sandbox, nothing changes what the next hook call loads', () => {
  const attacks = [
    'sed -i s/intact/broken/ policy/rules.ts',
    `echo "${EVIL}" > policy/rules.ts`,
    `echo "${EVIL}" > evil.ts; mv -f evil.ts policy/rules.ts`,
    `rm -rf policy && mkdir policy && echo "${EVIL}" > policy/rules.ts`,
    `mv policy policy-old && mkdir policy && echo "${EVIL}" > policy/rules.ts`,
    `echo '{"commands":["rm -rf /"]}' > policy/allow.json`,
    'sed -i s/from-x/evil/ packages/x/index.js',
    `mv packages packages-old && mkdir -p packages/x && echo "export const extra = 'evil';" > packages/x/index.js`,
    `python3 -c "open('policy/rules.ts', 'w').write('export const reason = 1;')"`,
    // A file the loader finds first: `./policy/rules.js` names rules.ts only while no rules.js is there.
    `echo "${EVIL}" > policy/rules.js`,
  ];
  attacks.forEach((attack, i) => {
    it(`\`${attack}\``, { timeout: slack(60_000) }, () => {
      // Control: in a copy of the project whose files the sandbox is not told of, the command does change them.
      const copy = path.join(r.root, `unprotected-${i}`);
      writePolicyProject(copy);
      const copied = bytesIn(copy);
      inSandbox(attack, copy, []);
      if (JSON.stringify(bytesIn(copy)) === JSON.stringify(copied)) expect(loadInChild(copy).reason).not.toBe(INTACT);
      // The project: every byte as it was, and the next load's rule intact.
      const before = bytesIn(r.ws);
      inSandbox(attack);
      expect(bytesIn(r.ws)).toEqual(before);
      expect(loadInChild(r.ws).reason).toBe(INTACT);
    });
  });

  it('control: the same commands change the sibling nothing imports', { timeout: slack(60_000) }, () => {
    const sibling = path.join(r.ws, 'policy', 'sibling.ts');
    const read = () => fs.readFileSync(sibling, 'utf8');
    // An attack above removed it with the folder's other unprotected files.
    fs.writeFileSync(sibling, `export const sibling = 'sibling intact';\n`);
    inSandbox('sed -i s/intact/broken/ policy/sibling.ts');
    expect(read()).toContain('sibling broken');
    inSandbox(`echo "${EVIL}" > policy/sibling.ts`);
    expect(read()).toBe(`${EVIL}\n`);
    inSandbox(`echo 'export const sibling = 1;' > evil.ts; mv -f evil.ts policy/sibling.ts`);
    expect(read()).toBe('export const sibling = 1;\n');
    // And the folder the policy's files sit in still takes new files.
    inSandbox('echo new > policy/new.txt');
    expect(fs.readFileSync(path.join(r.ws, 'policy', 'new.txt'), 'utf8')).toBe('new\n');
  });
});
