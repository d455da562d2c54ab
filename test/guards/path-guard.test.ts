import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { PathPolicy, pathGuard } from '../../src/guards/index.js';
import { makeFixture, type Fixture } from './fixture.js';

let f: Fixture;
let policy: PathPolicy;

beforeAll(() => {
  f = makeFixture();
  policy = new PathPolicy({ workspace: f.ws, home: f.home });
});
afterAll(() => f.cleanup());

const write = (p: string, opts: { cwd?: string; recursive?: boolean } = {}) =>
  policy.check(p, 'write', { cwd: opts.cwd ?? f.ws, recursive: opts.recursive });
const read = (p: string) => policy.check(p, 'read', { cwd: f.ws });

describe('workspace jail with real folders and symlinks', () => {
  it('allows paths inside, relative or absolute', () => {
    expect(write('src/a.ts').level).toBe('allow');
    expect(write(path.join(f.ws, 'src/new.ts')).level).toBe('allow');
    expect(write('./src/../src/a.ts').level).toBe('allow');
    expect(read('src/a.ts').level).toBe('allow');
  });

  it('refuses .. that leaves the workspace, and says where it leads', () => {
    const v = write('../outside/x');
    expect(v.level).toBe('deny');
    expect(v.why).toBe(`outside the workspace ${f.ws}`);
    expect(v.shown).toContain(path.join(f.outside, 'x'));
  });

  it('compares whole components: a sibling sharing the prefix is outside', () => {
    expect(write(`${f.ws}-evil/x`).level).toBe('deny');
    expect(write('../proj-evil/x').level).toBe('deny');
  });

  it('follows a symlinked folder to its target', () => {
    const v = write('link-out/file.txt');
    expect(v.level).toBe('deny');
    expect(v.shown).toContain('through a symlink');
    expect(v.resolved).toBe(path.join(f.outside, 'file.txt'));
  });

  it('follows a symlinked folder for a file that does not exist yet', () => {
    expect(write('link-out/brand-new.txt').level).toBe('deny');
    expect(write('link-in/brand-new.txt').level).toBe('allow');
  });

  it('resolves link/.. the way the kernel does (parent of the target, not of the link)', () => {
    // Textually this is <ws>/secret.txt; really it is <outside>/secret.txt.
    expect(path.resolve(f.ws, 'link-deep/../secret.txt').startsWith(f.ws)).toBe(true);
    const v = write('link-deep/../secret.txt');
    expect(v.level).toBe('deny');
    expect(v.resolved).toBe(path.join(f.outside, 'secret.txt'));
  });

  it('follows a dangling symlink to where a write would land', () => {
    expect(fs.existsSync(path.join(f.ws, 'dangling'))).toBe(false);
    expect(write('dangling').level).toBe('deny');
  });

  it('refuses to write a file with hard links elsewhere (cannot prove where it lives)', () => {
    const v = write('hard.txt');
    expect(v.level).toBe('unprovable');
    expect(v.why).toMatch(/hard links/);
  });

  it('expands ~ and $HOME to the home folder', () => {
    for (const p of ['~/x', '$HOME/x', '${HOME}/x', '~']) expect(write(p).level, p).toBe('deny');
    expect(write('~root/x').level).toBe('unprovable');
  });

  it('keeps reads in the workspace by default, anywhere on request, but never secrets', () => {
    expect(read('/etc/hosts').level).toBe('deny');
    const anywhere = new PathPolicy({ workspace: f.ws, home: f.home, read: 'anywhere' });
    expect(anywhere.check('/etc/hosts', 'read', { cwd: f.ws }).level).toBe('allow');
    const secret = anywhere.check('~/.ssh/id_rsa', 'read', { cwd: f.ws });
    expect(secret.level).toBe('deny');
    expect(secret.why).toMatch(/secret file \(SSH keys\)/);
    expect(anywhere.check('~/.aws/credentials', 'read', { cwd: f.ws }).level).toBe('deny');
    expect(anywhere.check('link-secret', 'read', { cwd: f.ws }).level).toBe('deny');
  });

  it('honours extra read and write roots', () => {
    const p = new PathPolicy({
      workspace: f.ws,
      home: f.home,
      allowRead: [path.join(f.outside, 'data')],
      allowWrite: [path.join(f.outside, 'sub')],
    });
    expect(p.check(path.join(f.outside, 'data/x'), 'read', { cwd: f.ws }).level).toBe('allow');
    expect(p.check(path.join(f.outside, 'data/x'), 'write', { cwd: f.ws }).level).toBe('deny');
    expect(p.check(path.join(f.outside, 'sub/x'), 'write', { cwd: f.ws }).level).toBe('allow');
    expect(p.check('link-deep/x', 'write', { cwd: f.ws }).level).toBe('allow');
  });
});

describe('protected files inside the workspace', () => {
  it.each([
    ['.git/hooks/pre-commit', /git metadata/],
    ['.git/config', /git metadata/],
    ['.GIT/config', /git metadata/],
    ['.claude/settings.json', /Claude Code settings/],
    ['.claude/settings.local.json', /Claude Code settings/],
    ['hookwise.config.ts', /hookwise's own configuration/],
    ['hookwise.config.mjs', /hookwise's own configuration/],
    ['.bashrc', /shell startup file/],
    ['.zshrc', /shell startup file/],
    ['.env', /secrets/],
    ['.env.local', /secrets/],
    ['packages/api/.env.production', /secrets/],
    ['.envrc', /direnv/],
  ])('refuses to write %s', (p, why) => {
    const v = write(p);
    expect(v.level).toBe('deny');
    expect(v.why).toMatch(why);
  });

  it('allows templates and ordinary dotfiles', () => {
    expect(write('.env.example').level).toBe('allow');
    expect(write('.gitignore').level).toBe('allow');
    expect(write('src/.bashrc-notes.md').level).toBe('allow');
  });

  it('refuses reading .env but not its template', () => {
    expect(read('.env').level).toBe('deny');
    expect(read('.env.example').level).toBe('allow');
  });

  it('refuses recursive writes that would take the workspace or .git with them', () => {
    expect(write('.', { recursive: true }).why).toMatch(/whole workspace/);
    expect(write('.', { recursive: false }).level).toBe('allow');
    expect(write('build', { recursive: true }).level).toBe('allow');
  });

  it('takes extra protected patterns', () => {
    const p = new PathPolicy({ workspace: f.ws, home: f.home, protect: ['migrations/**'] });
    expect(p.check('migrations/001.sql', 'write', { cwd: f.ws }).level).toBe('deny');
  });
});

describe('Windows forms and hidden characters are refused everywhere', () => {
  it.each([
    ['C:\\Windows\\System32\\x', 'drive'],
    ['\\\\server\\share\\x', 'UNC'],
    ['//?/C:/x', 'device namespace'],
    ['notes.txt::$DATA', 'alternate data stream'],
    ['notes.txt:hidden', 'alternate data stream'],
    ['CON', 'device'],
    ['src/aux.txt', 'device'],
    ['PROGRA~1/x', '8.3'],
    ['src/evil.', 'dot or space'],
    ['src/evil ', 'dot or space'],
    ['..\\..\\etc\\passwd', 'backslash'],
    ['src/a\u200b.ts', 'invisible'],
    ['src/a\x01.ts', 'control'],
  ])('%s (%s)', (p) => {
    expect(write(p).level).toBe('unprovable');
  });
});

describe('case folding and Unicode normalisation where the filesystem does', () => {
  it('on a case-insensitive filesystem, a differently cased workspace path is inside', () => {
    const folded = new PathPolicy({ workspace: f.ws, home: f.home, caseInsensitive: true });
    expect(folded.check(path.join(f.ws.toUpperCase(), 'x'), 'write', { cwd: f.ws }).level).toBe('allow');
    expect(folded.check(`${f.ws}-EVIL/x`, 'write', { cwd: f.ws }).level).toBe('deny');
  });

  it('on a case-sensitive filesystem, it is not', () => {
    const exact = new PathPolicy({ workspace: f.ws, home: f.home, caseInsensitive: false });
    expect(exact.check(path.join(f.ws.toUpperCase(), 'x'), 'write', { cwd: f.ws }).level).toBe('deny');
  });

  it('normalises composed and decomposed accents together with case', () => {
    const nfc = path.join(f.root, 'caf\u00e9');
    fs.mkdirSync(nfc, { recursive: true });
    const folded = new PathPolicy({ workspace: nfc, home: f.home, caseInsensitive: true });
    expect(folded.check(path.join(f.root, 'CAFE\u0301', 'x'), 'write', { cwd: nfc }).level).toBe('allow');
    const exact = new PathPolicy({ workspace: nfc, home: f.home, caseInsensitive: false });
    expect(exact.check(path.join(f.root, 'cafe\u0301', 'x'), 'write', { cwd: nfc }).level).toBe('deny');
  });

  it('probes the real filesystem when not told', () => {
    // This machine's temp folder is case-sensitive on Linux; the probe must agree with the kernel.
    const upper = f.ws.replace(/proj$/, 'PROJ');
    const sensitive = !fs.existsSync(upper);
    const probed = new PathPolicy({ workspace: f.ws, home: f.home });
    expect(probed.check(path.join(upper, 'x'), 'write', { cwd: f.ws }).level).toBe(sensitive ? 'deny' : 'allow');
  });
});

describe('pathGuard through engine.fire', () => {
  const fire = (engine: HookEngine, tool: string, tool_input: Record<string, unknown>) =>
    engine.fire('PreToolUse', { tool_name: tool, tool_input, cwd: f.ws });

  it('denies writes outside and protected files, with a reason; allows inside', async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: f.ws, home: f.home }));
    const out = await fire(engine, 'Write', { file_path: '/etc/passwd', content: 'x' });
    expect(out.decision).toBe('deny');
    expect(out.reason).toBe(`\`Write\` writing /etc/passwd: outside the workspace ${f.ws}`);
    expect((await fire(engine, 'Edit', { file_path: '.git/hooks/pre-commit' })).reason).toMatch(/protected file/);
    expect((await fire(engine, 'NotebookEdit', { notebook_path: 'link-out/n.ipynb' })).decision).toBe('deny');
    expect((await fire(engine, 'MultiEdit', { file_path: 'src/a.ts', edits: [] })).decision).toBeNull();
    expect((await fire(engine, 'Read', { file_path: 'src/a.ts' })).decision).toBeNull();
    expect((await fire(engine, 'Read', { file_path: '~/.ssh/id_rsa' })).reason).toMatch(/secret file/);
    expect((await fire(engine, 'Grep', { pattern: 'x', path: '/etc' })).decision).toBe('deny');
    expect((await fire(engine, 'Glob', { pattern: '/etc/**/*.conf' })).decision).toBe('deny');
    expect((await fire(engine, 'Glob', { pattern: '../**/*.ts' })).decision).toBe('deny');
    expect((await fire(engine, 'Glob', { pattern: 'src/**/*.ts' })).decision).toBeNull();
    expect((await fire(engine, 'Bash', { file_path: '/etc/passwd' })).hooks).toEqual([]);
  });

  it('files that run code when an editor, git or an agent next starts: one list for file tools, parser and sandbox', async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: f.ws, home: f.home }));
    for (const file of [
      '.devcontainer/python/devcontainer.json',
      '.lefthook.yml',
      'lefthook-local.yml',
      'lefthook.yml',
      'proj.code-workspace',
      '.husky/pre-commit',
      '.pre-commit-config.yaml',
      '.envrc',
      'mise.toml',
      '.mise.toml',
      '.vscode/tasks.json',
      '.idea/runConfigurations/x.xml',
      '.run/App.run.xml',
      'sub/lefthook.yaml',
    ]) {
      const out = await fire(engine, 'Write', { file_path: file, content: 'x' });
      expect(out.reason, file).toMatch(/protected file/);
      expect(policy.protectedRuleOf(path.join(f.ws, file), f.ws), `the sandbox's walk uses the same rule for ${file}`).toBeDefined();
    }
    expect((await fire(engine, 'Write', { file_path: 'src/workspace.ts', content: 'x' })).decision).toBeNull();
  });

  it("globs are expanded before judging: braces that leave the workspace, Grep's file filter that names secrets", async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: f.ws, home: f.home }));
    expect((await fire(engine, 'Glob', { pattern: '{src,../outside}/*' })).reason).toMatch(/outside the workspace/);
    expect((await fire(engine, 'Glob', { pattern: '{src,lib}/*.ts' })).decision).toBeNull();
    expect((await fire(engine, 'Grep', { pattern: 'KEY', glob: '.env*' })).reason).toMatch(/secret file/);
    expect((await fire(engine, 'Grep', { pattern: 'KEY', glob: '*.{ts,pem}' })).reason).toMatch(/secret file/);
    expect((await fire(engine, 'Grep', { pattern: 'KEY', glob: '*.ts' })).decision).toBeNull();
    // Glob lists names, not contents: a name pattern alone is not a read of the secret.
    expect((await fire(engine, 'Glob', { pattern: 'src/.env*' })).decision).toBeNull();
  });

  it("a tool's own folder argument is where its relative paths lead", async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: f.ws, home: f.home }));
    expect((await fire(engine, 'Write', { file_path: 'x.txt', cwd: '../..', content: 'x' })).reason).toMatch(/outside the workspace/);
    expect((await fire(engine, 'Write', { file_path: 'x.txt', dir_path: 'src', content: 'x' })).decision).toBeNull();
  });

  it('asks instead of denying what it cannot prove, when interactive', async () => {
    const engine = new HookEngine().register(pathGuard({ workspace: f.ws, home: f.home, interactive: true }));
    const out = await fire(engine, 'Write', { file_path: 'C:\\x' });
    expect(out.decision).toBe('ask');
    expect(out.reason).toMatch(/cannot prove/);
    expect((await fire(engine, 'Write', { file_path: '/etc/x' })).decision).toBe('deny');
  });

  it('judges custom tool names, and runs before user hooks', async () => {
    const seen: string[] = [];
    const engine = new HookEngine()
      .register({ name: 'user', events: 'PreToolUse', handler: () => void seen.push('user') })
      .register(pathGuard({ workspace: f.ws, home: f.home, writeTools: ['mcp__fs__write'], readTools: ['mcp__fs__read'] }));
    expect((await fire(engine, 'mcp__fs__write', { path: '/etc/x' })).decision).toBe('deny');
    expect(seen).toEqual([]);
    expect((await fire(engine, 'mcp__fs__read', { path: '/etc/x' })).decision).toBe('deny');
    expect((await fire(engine, 'mcp__fs__read', { path: 'src/a.ts' })).decision).toBeNull();
    expect(seen).toEqual(['user']);
  });

  it('rejects bad options with the field named', () => {
    expect(() => pathGuard({ read: 'everywhere' as 'anywhere' })).toThrow(/read must be "workspace" or "anywhere"/);
    expect(() => pathGuard({ interactive: 'yes' as unknown as boolean })).toThrow(/interactive must be true or false/);
  });
});
