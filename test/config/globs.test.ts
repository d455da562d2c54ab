import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineFor, loadConfig } from '../../src/config/load.js';

/**
 * Globs in config modules compile on their first test (start-up of `hookwise claude-code`
 * never pays for picomatch when no glob is tested): they must match as before, and a
 * pattern picomatch rejects must still fail at load, naming the config.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-globs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function engineOf(matchers: string): Promise<ReturnType<typeof engineFor>> {
  const file = path.join(dir, `hookwise.config.${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `export default { hooks: [${matchers}] };\n`);
  return engineFor(await loadConfig({ files: [file], cwd: dir }));
}

const hook = (name: string, matcher: string) =>
  `{ name: ${JSON.stringify(name)}, events: 'PreToolUse', matcher: ${matcher}, handler: () => ({ kind: 'context', additionalContext: ${JSON.stringify(name)} }) }`;

async function matched(engine: ReturnType<typeof engineFor>, input: Record<string, unknown>): Promise<string[]> {
  const outcome = await engine.fire('PreToolUse', { cwd: dir, ...input });
  return (outcome.additionalContext ?? '').split('\n').filter(Boolean);
}

describe('path and toolGlob matchers', () => {
  it('match on first and later tests, basename at any depth, anchored tool globs', async () => {
    const engine = await engineOf(
      [
        hook('env', `{ tool: ['Edit', 'Write'], path: '.env*' }`),
        hook('src', `{ path: './src/**/*.ts' }`),
        hook('mcp', `{ toolGlob: 'mcp__db__*' }`),
      ].join(', '),
    );
    expect(await matched(engine, { tool_name: 'Edit', tool_input: { file_path: 'deep/dir/.env.local' } })).toEqual(['env']);
    expect(await matched(engine, { tool_name: 'Write', tool_input: { file_path: path.join(dir, 'src', 'a', 'b.ts') } })).toEqual(['src']);
    expect(await matched(engine, { tool_name: 'Write', tool_input: { file_path: 'README.md' } })).toEqual([]);
    expect(await matched(engine, { tool_name: 'mcp__db__query', tool_input: {} })).toEqual(['mcp']);
    expect(await matched(engine, { tool_name: 'xmcp__db__query', tool_input: {} })).toEqual([]);
    expect(await matched(engine, { tool_name: 'Edit', tool_input: { file_path: '.env' } })).toEqual(['env']);
  });

  it('an empty or over-long pattern fails at load, as it always did', async () => {
    await expect(engineOf(hook('empty', `{ path: '' }`))).rejects.toThrow(/Expected pattern to be a non-empty string/);
    await expect(engineOf(hook('dot-slash', `{ path: './' }`))).rejects.toThrow(/Expected pattern to be a non-empty string/);
    await expect(engineOf(hook('empty-tool', `{ toolGlob: '' }`))).rejects.toThrow(/Expected pattern to be a non-empty string/);
    await expect(engineOf(hook('long', `{ path: 'a'.repeat(70000) }`))).rejects.toThrow(/exceeds maximum allowed length/);
    await expect(engineOf(hook('number', `{ toolGlob: 42 }`))).rejects.toThrow(/non-empty string/);
  });
});
