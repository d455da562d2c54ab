import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engineFor } from '../../src/config/load.js';
import type { PolicyFile } from '../../src/core/spec.js';
import { slack } from '../support/slack.js';
import { INTACT, loadInChild, REPO, writePolicyProject } from '../support/policy-project.js';

let ws: string;
beforeEach(() => {
  ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-policy-files-')));
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

/** The files loaded (not the paths that must stay absent beside them). */
const pathsOf = (files: PolicyFile[]) =>
  files
    .filter((f) => f.insteadOf === undefined)
    .map((f) => f.path)
    .sort();
const inWs = (...names: string[]) => names.map((n) => path.join(ws, n)).sort();

describe("a policy's files are recorded as its loaders load them (issue 38)", () => {
  it('the config, its relative imports, its JSON and a package linked into the project; not a sibling nor an installed package', {
    timeout: slack(60_000),
  }, () => {
    writePolicyProject(ws);
    const loaded = loadInChild(ws);
    expect(loaded.reason).toBe(INTACT);
    expect(pathsOf(loaded.files)).toEqual(inWs('hookwise.config.ts', 'policy/rules.ts', 'policy/allow.json', 'packages/x/index.js'));
    // Each names the config that loads it, for the guards' reason.
    for (const f of loaded.files) expect(f.policy).toBe(path.join(ws, 'hookwise.config.ts'));
    // hookwise itself (node_modules/hookwise, linked to this checkout) is not the project's: own-install protects it.
    expect(loaded.files.some((f) => f.path.startsWith(REPO))).toBe(false);
  });

  it('keeps the graph beside the compiled config, and records it again when one of its files changes', { timeout: slack(60_000) }, () => {
    writePolicyProject(ws);
    loadInChild(ws);
    const kept = JSON.parse(fs.readFileSync(path.join(ws, '.hookwise', 'cache', 'hookwise.config.ts.files.json'), 'utf8')) as {
      files: Array<[string, string]>;
    };
    expect(kept.files.map(([f]) => f).sort()).toEqual(
      inWs('hookwise.config.ts', 'policy/rules.ts', 'policy/allow.json', 'packages/x/index.js'),
    );
    // A person's edit (outside the agent): rules.ts now imports a file of its own.
    fs.writeFileSync(path.join(ws, 'policy', 'more.ts'), `export const more: string = 'more';\n`);
    fs.writeFileSync(
      path.join(ws, 'policy', 'rules.ts'),
      `import { more } from './more.ts';\nexport const reason: string = 'rules now ' + more;\n`,
    );
    const again = loadInChild(ws);
    expect(again.reason).toBe('rules now more');
    expect(pathsOf(again.files)).toContain(path.join(ws, 'policy', 'more.ts'));
  });

  it('names where a loader would look first as paths that must stay absent; one that appears is loaded, and recorded', {
    timeout: slack(60_000),
  }, () => {
    writePolicyProject(ws);
    const rules = path.join(ws, 'policy', 'rules.ts');
    const loaded = loadInChild(ws);
    expect(
      loaded.files
        .filter((f) => f.insteadOf === rules)
        .map((f) => path.basename(f.path))
        .sort(),
    ).toEqual(['rules.cjs', 'rules.cts', 'rules.js', 'rules.jsx', 'rules.mjs', 'rules.mts', 'rules.tsx']);
    // `./policy/rules.js` names rules.ts only while there is no rules.js: a person's new rules.js is what loads next.
    fs.writeFileSync(path.join(ws, 'policy', 'rules.js'), `export const reason = 'the javascript rules';\n`);
    const again = loadInChild(ws);
    expect(again.reason).toBe('the javascript rules');
    expect(pathsOf(again.files)).toContain(path.join(ws, 'policy', 'rules.js'));
  });

  it("a native config's imports are seen by Node's own loader (JavaScript and JSON)", { timeout: slack(60_000) }, () => {
    writePolicyProject(ws);
    fs.rmSync(path.join(ws, 'hookwise.config.ts'));
    fs.writeFileSync(path.join(ws, 'policy', 'native.mjs'), `export const native = 'native rule';\n`);
    fs.writeFileSync(
      path.join(ws, 'hookwise.config.mjs'),
      [
        `import { defineConfig, deny } from 'hookwise';`,
        `import { native } from './policy/native.mjs';`,
        `import allow from './policy/allow.json' with { type: 'json' };`,
        `export default defineConfig({ hooks: [{ name: 'rules', events: 'PreToolUse', matcher: 'Deploy', handler: () => deny(native + ' ' + allow.commands) }] });`,
        '',
      ].join('\n'),
    );
    const loaded = loadInChild(ws);
    expect(loaded.reason).toBe('native rule ls');
    expect(pathsOf(loaded.files)).toEqual(inWs('hookwise.config.mjs', 'policy/native.mjs', 'policy/allow.json'));
  });

  it('HOOKWISE_NO_CACHE records the graph on every load and writes nothing', { timeout: slack(60_000) }, () => {
    writePolicyProject(ws);
    const loaded = loadInChild(ws, { HOOKWISE_NO_CACHE: '1' });
    expect(loaded.reason).toBe(INTACT);
    expect(pathsOf(loaded.files)).toEqual(inWs('hookwise.config.ts', 'policy/rules.ts', 'policy/allow.json', 'packages/x/index.js'));
    expect(fs.existsSync(path.join(ws, '.hookwise'))).toBe(false);
  });

  it('the engine a config makes hands its policy files to every hook as ctx.policyFiles', async () => {
    const files: PolicyFile[] = [{ path: path.join(ws, 'hookwise.config.ts'), policy: path.join(ws, 'hookwise.config.ts') }];
    let seen: readonly PolicyFile[] | undefined;
    const hook = {
      name: 'look',
      events: 'PreToolUse',
      handler: (_: unknown, ctx: { policyFiles?: readonly PolicyFile[] }) => void (seen = ctx.policyFiles),
    };
    await engineFor({ sources: [], hooks: [hook], warnings: [], parallel: false, policyFiles: files }).fire('PreToolUse', {
      tool_name: 'Bash',
    });
    expect(seen).toEqual(files);
  });
});
