import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { resolveSandbox, Sandbox } from '../../src/sandbox/index.js';
import { ownInstall } from '../../src/sandbox/own-install.js';
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
