import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../audit/helpers.js';
import { runCli } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('hookwise init writes a first policy test beside the starter policy', { timeout: slack(120_000) }, () => {
  it(
    'the starter tests pass on the starter policy and fail when its own hook is removed',
    async () => {
      const init = await runCli(['init'], { cwd: dir });
      expect(init.stdout).toContain('wrote    hookwise.policy-test.yaml');
      const pass = await runCli(['test'], { cwd: dir });
      expect(pass.stdout).toContain('3 cases: 3 passed, 0 failed');
      expect(pass.code).toBe(0);
      const config = path.join(dir, 'hookwise.config.ts');
      writeFileSync(
        config,
        readFileSync(config, 'utf8').replace('command: String.raw`deploy.*--prod`', 'command: String.raw`deploy.*--no-such`'),
      );
      const fail = await runCli(['test'], { cwd: dir });
      expect(fail.stdout).toContain('FAIL  hookwise.policy-test.yaml > a production deploy is refused by your own hook');
      expect(fail.code).toBe(1);
    },
    slack(180_000),
  );

  it('never overwrites a test file already there', async () => {
    writeFileSync(path.join(dir, 'hookwise.policy-test.yaml'), '# mine\n');
    await runCli(['init'], { cwd: dir });
    expect(readFileSync(path.join(dir, 'hookwise.policy-test.yaml'), 'utf8')).toBe('# mine\n');
  });
});
