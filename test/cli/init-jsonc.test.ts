import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stripJsonComments } from '../../src/config/jsonc.js';
import { runCli } from './run-cli.js';

/** Gemini CLI reads `.gemini/settings.json` with comments; `hookwise init gemini` reads it as Gemini does. */
const root = mkdtempSync(path.join(tmpdir(), 'hookwise-init-jsonc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const COMMENTED = `{
  // the model this project uses
  "model": { "name": "gemini-2.5-pro" }, /* a block
  comment */
  "url": "https://example.com/a//b" // a // inside a string is text
}
`;

describe('stripJsonComments', () => {
  it('blanks line and block comments, keeps strings and every line and column', () => {
    const { text, comments } = stripJsonComments(COMMENTED);
    expect(comments).toBe(true);
    expect(JSON.parse(text)).toEqual({ model: { name: 'gemini-2.5-pro' }, url: 'https://example.com/a//b' });
    expect(text.split('\n').map((l) => l.length)).toEqual(COMMENTED.split('\n').map((l) => l.length));
    expect(stripJsonComments('{"a": "/* not a comment */"}')).toEqual({ text: '{"a": "/* not a comment */"}', comments: false });
  });
});

describe('hookwise init gemini on a settings file with comments', () => {
  // Catches: init refusing the file Gemini itself reads ("invalid JSON"), or dropping the user's comments unseen.
  it('merges hookwise in, keeps the settings, and leaves the commented file beside it as .bak', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    mkdirSync(path.join(dir, '.gemini'));
    const settings = path.join(dir, '.gemini', 'settings.json');
    writeFileSync(settings, COMMENTED);
    // init gemini also writes the user's ~/.gemini/settings.json: a home of the test's own.
    const home = mkdtempSync(path.join(root, 'home-'));
    const r = await runCli(['init', 'gemini'], { cwd: dir, env: { HOME: home } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.gemini/settings.json had comments');
    const file = JSON.parse(readFileSync(settings, 'utf8'));
    expect(file.model).toEqual({ name: 'gemini-2.5-pro' });
    expect(file.hooks.BeforeTool[0].hooks[0].command).toContain('exec node "$b" gemini');
    expect(readFileSync(`${settings}.bak`, 'utf8')).toBe(COMMENTED);
  });

  // Catches: the user's file written before the project's was read, and init then failing with half its work done.
  it('a project file it cannot read leaves every file as it was, the user-level one too', async () => {
    const dir = mkdtempSync(path.join(root, 'p-'));
    mkdirSync(path.join(dir, '.gemini'));
    const broken = '{\n  // trailing comma: Gemini cannot read this either\n  "theme": "dark",\n}\n';
    writeFileSync(path.join(dir, '.gemini', 'settings.json'), broken);
    const home = mkdtempSync(path.join(root, 'home-'));
    const r = await runCli(['init', 'gemini'], { cwd: dir, env: { HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('trailing comma');
    expect(existsSync(path.join(home, '.gemini', 'settings.json'))).toBe(false);
    expect(readFileSync(path.join(dir, '.gemini', 'settings.json'), 'utf8')).toBe(broken);
  });
});
