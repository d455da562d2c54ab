import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfigModule } from '../../src/config/module.js';

/**
 * A config's hooks are named by their position as the user wrote them: a guard factory
 * that returns two hooks (`secretGuard()`) is one element of `hooks`, so the element
 * after it is `hooks[2]`, not the third hook counted after flattening. check, explain
 * and test print these sources; a validation message points at the element to fix.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-positions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hook = (name: string, extra = '') => `{ name: '${name}', events: 'PreToolUse', handler: () => undefined${extra} }`;

function write(name: string, hooks: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `export default { hooks: [${hooks}] };\n`);
  return file;
}

describe("a config module's hook positions", () => {
  // Catches: positions counted after flattening (the starter's fourth hook reported as hooks[4]).
  it("names a factory's hooks hooks[i][j] and the elements after it by their own index", async () => {
    const file = write('nested.mjs', `${hook('a')}, [${hook('b')}, ${hook('c')}], ${hook('d')}, ${hook('e', ', timout: 5')}`);
    const source = await loadConfigModule(file);
    expect(source.hooks.map((h) => h.source)).toEqual([
      `${file} hooks[0]`,
      `${file} hooks[1][0]`,
      `${file} hooks[1][1]`,
      `${file} hooks[2]`,
      `${file} hooks[3]`,
    ]);
    expect(source.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} hooks\\[3\\]: unknown field "timout"`)),
    ]);
  });

  it('a non-object element is refused at its own position', async () => {
    const file = write('bad.mjs', `${hook('a')}, [${hook('b')}, ${hook('c')}], 42`);
    const error = await loadConfigModule(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('hooks[2]');
    expect((error as Error).message).not.toContain('hooks[3]');
  });
});
