import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HookEngine } from '../../src/core/engine.js';
import { shellGuard } from '../../src/guards/index.js';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { resolveSandbox, Sandbox } from '../../src/sandbox/index.js';
import { ownInstall, packageClosure } from '../../src/path-policy/own-install.js';
import { makeRange, type Range } from './harness.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

/**
 * The next hook runs hookwise's code outside the sandbox: a command that rewrote it, or
 * a package it loads, would run as the hook. Here the workspace is the folder holding
 * this checkout's installed packages, so hookwise's own dependencies sit in it, writable
 * but for the sandbox's rule.
 */
it("hookwise's own packages are read-only in a workspace that holds them; the rest stays writable", () => {
  const modules = fs.realpathSync(path.join(repoRoot, 'node_modules'));
  const zod = path.join(modules, 'zod');
  expect(ownInstall()).toContain(zod);
  const probe = `hookwise-probe-${process.pid}`;
  const sandbox = new Sandbox(resolveSandbox({}, 'test')!);
  const command = `echo x > zod/${probe}.js; echo zod=$?; mv zod zod-aside-${process.pid}; echo moved=$?; mkdir ${probe} && echo x > ${probe}/f; echo other=$?`;
  const { line } = sandbox.wrap(command, new PathPolicy({ workspace: modules, home: r.home }), r.env);
  try {
    const run = spawnSync('/bin/bash', ['-c', line], { cwd: modules, env: r.env, encoding: 'utf8' });
    expect(run.stdout).toMatch(/zod=[1-9]/);
    expect(run.stdout).toMatch(/moved=[1-9]/);
    expect(run.stdout).toContain('other=0');
    expect(fs.existsSync(path.join(zod, `${probe}.js`))).toBe(false);
    expect(fs.existsSync(path.join(zod, 'package.json'))).toBe(true);
    expect(fs.readFileSync(path.join(modules, probe, 'f'), 'utf8')).toBe('x\n');
  } finally {
    fs.rmSync(path.join(modules, probe), { recursive: true, force: true });
    fs.rmSync(path.join(zod, `${probe}.js`), { force: true });
    if (fs.existsSync(path.join(modules, `zod-aside-${process.pid}`))) fs.renameSync(path.join(modules, `zod-aside-${process.pid}`), zod);
  }
});

/**
 * `npm ci` empties node_modules, and a read-only folder of hookwise's there is a mount the
 * command cannot remove (EBUSY): the model is told whose it is and who changes it.
 */
it("a command that cannot move hookwise's own package is told why: by the parser when it shows, by the after-tool line when it does not", async () => {
  const modules = fs.realpathSync(path.join(repoRoot, 'node_modules'));
  const aside = `zod-aside-${process.pid}`;
  const engine = new HookEngine().register(shellGuard({ workspace: modules, home: r.home }));
  const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, cwd: modules, session_id: `${r.root}:own` });
  const shown = await engine.fire('PreToolUse', bash(`mv zod ${aside}`), { env: r.env });
  expect(shown.decision).toBe('deny');
  expect(shown.reason).toContain(`hookwise's own install, which the next hook call runs: ${path.join(modules, 'zod')}`);
  // As npm ci empties node_modules: Node's rename of the folder, which the parser does not see.
  const input = bash(`node -e "require('fs').renameSync('zod', '${aside}')"`);
  const pre = await engine.fire('PreToolUse', input, { env: r.env });
  const line = (pre.updatedInput as { command?: string } | null)?.command;
  expect(line, pre.reason ?? 'no line').toBeDefined();
  try {
    const run = spawnSync('/bin/bash', ['-c', line!], { cwd: modules, env: r.env, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(fs.existsSync(path.join(modules, 'zod', 'package.json'))).toBe(true);
    const post = await engine.fire(
      'PostToolUse',
      { ...input, tool_input: { command: line }, tool_response: { stdout: run.stdout, stderr: run.stderr, interrupted: false } },
      { env: r.env },
    );
    expect(post.additionalContext).toBe(
      `hookwise: the OS sandbox kept zod read-only: hookwise's own install, which the next hook call runs (${path.join(modules, 'zod')}); a person reinstalls or removes it outside the agent, in a terminal.`,
    );
  } finally {
    if (fs.existsSync(path.join(modules, aside))) fs.renameSync(path.join(modules, aside), path.join(modules, 'zod'));
  }
});

/**
 * The host's own file tools write without the sandbox: the path guard refuses what the
 * sandbox shows read-only, hookwise's packages inside the workspace, and allows the rest.
 */
it("the path guard refuses to write into hookwise's own packages in the workspace", () => {
  const modules = fs.realpathSync(path.join(repoRoot, 'node_modules'));
  const policy = new PathPolicy({ workspace: modules, home: r.home });
  const write = (p: string) => policy.check(p, 'write', { cwd: modules });
  expect(write('zod/index.js')).toMatchObject({
    level: 'deny',
    why: `a protected file (hookwise's own install, which the next hook call runs: ${path.join(modules, 'zod')})`,
  });
  expect(write('zod')).toMatchObject({ level: 'deny' });
  expect(write(`not-a-package-${process.pid}/index.js`).level).toBe('allow');
  // hookwise's own checkout as the workspace (working on hookwise itself) is not refused whole.
  expect(new PathPolicy({ workspace: repoRoot, home: r.home }).check('src/index.ts', 'write', { cwd: repoRoot }).level).toBe('allow');
});

/**
 * Hook entries run `<project>/node_modules/hookwise/bin/hookwise.js`. Where that is a link
 * (`npm link`, pnpm, a workspace package), the folder it leads to is read-only, but the
 * link itself sits in `node_modules`, which stays writable: a command that points it at
 * a hookwise of its own would have that answer the next hook call. The sandbox puts it back.
 */
it('a link to hookwise that a command points elsewhere is put back after the command', () => {
  const project = path.join(r.root, 'linked');
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  fs.symlinkSync(repoRoot, path.join(project, 'node_modules', 'hookwise'));
  const link = path.join(project, 'node_modules', 'hookwise');
  const sandbox = new Sandbox(resolveSandbox({}, 'test')!);
  const policy = new PathPolicy({ workspace: project, home: r.home });
  const run = (command: string) => {
    const { line } = sandbox.wrap(command, policy, r.env);
    return spawnSync('/bin/bash', ['-c', line], { cwd: project, env: r.env, encoding: 'utf8' });
  };
  // The control: a command that leaves the link alone hears nothing of it.
  const quiet = run('echo hi');
  expect([quiet.status, quiet.stdout, quiet.stderr]).toEqual([0, 'hi\n', '']);
  const evil =
    'mkdir -p evil/bin && echo "{}" > evil/package.json && echo "console.log(1)" > evil/bin/hookwise.js && ln -sfn ../evil node_modules/hookwise && cat node_modules/hookwise/package.json';
  const attack = run(evil);
  // Inside, the command did re-point it (the attack is real); outside, the link leads to hookwise again.
  expect(attack.stdout).toBe('{}\n');
  expect(attack.stderr).toContain(`hookwise sandbox: put back ${link}, a link to hookwise's own install the command changed`);
  expect(fs.readlinkSync(link)).toBe(repoRoot);
  expect(fs.realpathSync(link)).toBe(fs.realpathSync(repoRoot));
  const aside = fs.readdirSync(path.join(project, 'node_modules')).filter((n) => n.startsWith('hookwise.hookwise-blocked-'));
  expect(aside.map((n) => fs.readlinkSync(path.join(project, 'node_modules', n)))).toEqual(['../evil']);
  // Removed outright, it is made again too.
  const removed = run('rm node_modules/hookwise');
  expect(removed.stderr).toContain('put back');
  expect(fs.readlinkSync(link)).toBe(repoRoot);
});

it('a command the host ends early (SIGTERM to its group, as at a timeout) still has the link put back', async () => {
  const project = path.join(r.root, 'killed');
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  const link = path.join(project, 'node_modules', 'hookwise');
  fs.symlinkSync(repoRoot, link);
  const sandbox = new Sandbox(resolveSandbox({}, 'test')!);
  const { line } = sandbox.wrap(
    'mkdir -p evil && echo "{}" > evil/package.json && ln -sfn ../evil node_modules/hookwise && sleep 60',
    new PathPolicy({ workspace: project, home: r.home }),
    r.env,
  );
  const child = spawn('/bin/bash', ['-c', line], { cwd: project, env: r.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  // The workspace is the real folder inside: the link changes here as soon as the command re-points it.
  while (fs.readlinkSync(link) === repoRoot) await new Promise((resolve) => setTimeout(resolve, 20));
  process.kill(-child.pid!, 'SIGTERM');
  await ended;
  expect(fs.readlinkSync(link)).toBe(repoRoot);
  expect(stderr).toContain('put back');
});

it("finds the links pnpm's layout puts on the way to a package's dependencies", () => {
  const store = path.join(r.root, 'pnpm-app', 'node_modules', '.pnpm');
  const a = path.join(store, 'a@1.0.0', 'node_modules', 'a');
  const b = path.join(store, 'b@1.0.0', 'node_modules', 'b');
  fs.mkdirSync(a, { recursive: true });
  fs.mkdirSync(b, { recursive: true });
  fs.writeFileSync(path.join(a, 'package.json'), JSON.stringify({ name: 'a', dependencies: { b: '1.0.0' } }));
  fs.writeFileSync(path.join(b, 'package.json'), JSON.stringify({ name: 'b' }));
  // pnpm links each dependency beside the package that needs it.
  const link = path.join(store, 'a@1.0.0', 'node_modules', 'b');
  fs.symlinkSync('../../b@1.0.0/node_modules/b', link);
  const closure = packageClosure(a);
  expect(closure.folders).toEqual([fs.realpathSync(a), fs.realpathSync(b)]);
  expect(closure.links).toEqual([{ link, text: '../../b@1.0.0/node_modules/b', real: fs.realpathSync(b) }]);
});
