import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from '../cli/run-cli.js';
import { slack } from '../support/slack.js';

/**
 * End to end, in `npm run test:e2e` (two strict tsc runs over the frameworks' typings
 * take minutes on a busy machine). In `npm test`, ./tarball.test.ts checks what the
 * tarball ships, test/cli/first-hour.test.ts the newcomer's path through the CLI, and
 * typecheck:test the sources and tests with the same strict compiler.
 *
 * A TypeScript project of a user's: `npm init -y`, the packed tarball installed,
 * strict tsc with `"module": "nodenext"` and no skipLibCheck. The tarball's
 * dependencies (and the frameworks the adapters are for) come from this checkout's
 * node_modules, so the test needs no network; devDependencies are not there, as
 * they are not in a user's project.
 */
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const project = mkdtempSync(path.join(tmpdir(), 'hookwise-consumer-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function link(name: string): void {
  const to = path.join(project, 'node_modules', name);
  mkdirSync(path.dirname(to), { recursive: true });
  symlinkSync(path.join(root, 'node_modules', name), to, 'dir');
}

/** Every ```ts block of the docs a user reads. */
function docExamples(): Array<{ name: string; code: string }> {
  const pages = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return pages.flatMap((page) => {
    const text = readFileSync(path.join(root, page), 'utf8');
    return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${page.replace(/\W+/g, '-')}-${i + 1}.ts`, code: m[1]! }));
  });
}

beforeAll(() => {
  const tgz = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', project], { cwd: root, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  mkdirSync(path.join(project, 'node_modules', 'hookwise'), { recursive: true });
  execFileSync('tar', ['-xzf', path.join(project, tgz), '-C', path.join(project, 'node_modules', 'hookwise'), '--strip-components=1']);
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {}), '@types/node']) link(name);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module' }));
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        types: ['node'],
        noEmit: true,
        skipLibCheck: false,
      },
      include: ['src'],
    }),
  );
  mkdirSync(path.join(project, 'src'));
}, slack(120_000));

function tsc(): { code: number | null; output: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('a strict TypeScript consumer of the packed tarball', () => {
  it(
    'type-checks every example in the docs, and a typo in an event or field is an error',
    () => {
      for (const { name, code } of docExamples()) writeFileSync(path.join(project, 'src', name), code);
      // The example policies a user copies.
      for (const example of ['examples/hookwise.config.ts', 'examples/demo/hookwise.config.ts']) {
        writeFileSync(path.join(project, 'src', example.replace(/\W+/g, '-')), readFileSync(path.join(root, example), 'utf8'));
      }
      // Every public entry point, so each one's typings are checked whole.
      const entries = Object.keys(pkg.exports).filter((e) => e !== './package.json');
      writeFileSync(
        path.join(project, 'src', 'entries.ts'),
        entries.map((e, i) => `export * as entry${i} from '${e === '.' ? 'hookwise' : `hookwise/${e.slice(2)}`}';`).join('\n'),
      );
      writeFileSync(
        path.join(project, 'src', 'typos.ts'),
        `import { defineConfig, defineHook, deny, type HookInput } from 'hookwise';
import { shellGuard } from 'hookwise/guards';

export default defineConfig({
  hooks: [
    shellGuard(),
    // @ts-expect-error: no such event
    { name: 'typo-event', events: 'PreToolUsee', handler: () => deny('x') },
    { name: 'typed', events: 'PreToolUse', handler: (input) => {
      const command: string | undefined = input.tool_input.command;
      // @ts-expect-error: no such field
      return input.tool_nme === command ? deny('x') : undefined;
    } },
    defineHook({ name: 'both', events: ['PreToolUse', 'PostToolUse'], handler: (input) =>
      input.hook_event_name === 'PostToolUse' && input.tool_response === 'x' ? deny('y') : undefined }),
  ],
});
export const stop = (input: HookInput<'Stop'>): boolean => input.stop_hook_active;
`,
      );
      const { code, output } = tsc();
      expect(output).toBe('');
      expect(code).toBe(0);
    },
    slack(120_000),
  );
});

/**
 * The newcomer's path, through the installed tarball's own bin (not this checkout's):
 * init, init claude-code, check --strict, fire, demo, in the strict-TypeScript project,
 * and the policy init wrote type-checks there.
 */
describe("a newcomer's first hour with the packed tarball", () => {
  const bin = () => path.join(project, 'node_modules', 'hookwise', 'bin', 'hookwise.js');
  // The tarball's CLI, as `npx hookwise` runs it; HOOKWISE_* from the test runner's own environment left out.
  const hookwise = (args: string[], stdin?: string) =>
    runNode([bin(), ...args], { cwd: project, stdin, unset: Object.keys(process.env).filter((k) => k.startsWith('HOOKWISE_')) });
  const bash = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } });

  it(
    'init, init claude-code, check --strict, fire and demo run without a surprise',
    async () => {
      execFileSync('git', ['init', '-q'], { cwd: project });
      const init = await hookwise(['init']);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      expect((await hookwise(['init', 'claude-code'])).code).toBe(0);
      const settings = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
      // Claude Code runs the entry with bash: the installed hookwise refuses rm -rf ~.
      const entry = settings.hooks.PreToolUse[0].hooks[0].command as string;
      const input = {
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd: project,
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf ~' },
      };
      const answer = spawnSync('bash', ['-c', entry], {
        input: JSON.stringify(input),
        encoding: 'utf8',
        env: { ...process.env, CLAUDE_PROJECT_DIR: project },
      });
      expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision).toBe('deny');

      const check = await hookwise(['check', '--strict']);
      expect(check.stdout).toContain("hookwise's own entry: skipped");
      expect(check.stdout).not.toMatch(/warning|\d\. settings:/);
      expect(check.code).toBe(0);

      const ls = JSON.parse((await hookwise(['fire', 'PreToolUse'], bash('ls'))).stdout);
      expect(ls.blocked).toBe(false);
      const rm = JSON.parse((await hookwise(['fire', 'PreToolUse'], bash('rm -rf ~'))).stdout);
      expect(rm.blocked).toBe(true);
      expect(rm.hooks.map((h: { name: string }) => h.name)).toEqual(['guard:shell', 'guard:secret']);

      const demo = await hookwise(['demo']);
      expect(demo.code).toBe(0);
      expect(demo.stdout).toContain('audit verify');
      expect(existsSync(path.join(project, '.hookwise', 'audit.db'))).toBe(false);

      // The policy init wrote is the user's own TypeScript: strict tsc accepts it.
      const config = readdirSync(project).find((f) => /^hookwise\.config\./.test(f))!;
      writeFileSync(path.join(project, 'src', `init-${config}`), readFileSync(path.join(project, config), 'utf8'));
      const { code, output } = tsc();
      expect(output).toBe('');
      expect(code).toBe(0);
    },
    slack(180_000),
  );
});
