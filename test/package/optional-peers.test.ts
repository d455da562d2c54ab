import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingPackageError } from '../../src/index.js';
import { missingPackage } from '../../src/core/missing-package.js';
import { cliPath, repoRoot, runNode } from '../cli/run-cli.js';

/**
 * pg, ioredis and the MCP SDK are optional peer dependencies: a project installs the
 * ones its features need. Without them every entry point still loads, and a feature
 * that needs one says which package and how to install it.
 */
const hide = path.join(repoRoot, 'test', 'support', 'hide-packages.mjs');
const PEERS = 'pg,ioredis,@modelcontextprotocol/sdk';

/** Node, with the optional peers hidden, running `code` as an ES module in this checkout (imports resolve to dist/). */
const withoutPeers = (args: string[]) => runNode(['--import', hide, ...args], { env: { HOOKWISE_TEST_HIDE: PEERS } });
const script = (code: string) => withoutPeers(['--input-type=module', '-e', code]);

describe('the optional peers, when the project has not installed them', () => {
  it('every entry point loads', async () => {
    const entries = [
      'hookwise',
      'hookwise/audit',
      'hookwise/approvals',
      'hookwise/counters',
      'hookwise/handlers',
      'hookwise/serve',
      'hookwise/config',
    ];
    const r = await script(`for (const e of ${JSON.stringify(entries)}) await import(e); console.log('loaded');`);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('loaded');
  });

  // Catches: a raw "Cannot find package" (or a crash) instead of the package and its install command.
  it.each([
    ['pg', `const { openAuditStore } = await import('hookwise/audit'); await openAuditStore('postgres://127.0.0.1:5432/test');`],
    ['ioredis', `const { openCounterStore } = await import('hookwise/counters'); await openCounterStore('redis://127.0.0.1:6379');`],
  ])('%s: the feature that needs it throws MissingPackageError naming it and `npm install`', async (name, code) => {
    const r = await script(
      `try { ${code} console.log('no error'); } catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`,
    );
    expect(JSON.parse(r.stdout)).toEqual({
      name: 'MissingPackageError',
      code: 'MISSING_PACKAGE',
      message: expect.stringContaining(`needs the package ${name}, which is not installed: run \`npm install ${name}\``),
    });
  });

  it('@modelcontextprotocol/sdk: `hookwise mcp-proxy` says what to install, and exits non-zero', async () => {
    const r = await withoutPeers([cliPath, 'mcp-proxy', '--', 'node', '-e', '0']);
    expect(r.stderr).toContain(
      'hookwise mcp-proxy needs the package @modelcontextprotocol/sdk, which is not installed: run `npm install @modelcontextprotocol/sdk`',
    );
    expect(r.code).not.toBe(0);
  });
});

describe('missingPackage', () => {
  it('turns only "that package is not installed" into MissingPackageError', () => {
    const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(missingPackage(notFound("Cannot find package 'pg' imported from /x.js"), 'pg', 'F')).toBeInstanceOf(MissingPackageError);
    expect(
      missingPackage(notFound("Cannot find package '@modelcontextprotocol/sdk/client/index.js'"), '@modelcontextprotocol/sdk', 'F'),
    ).toBeInstanceOf(MissingPackageError);
    // Another package missing, or another failure, is not hidden behind the wrong advice.
    const other = notFound("Cannot find package 'pg-protocol' imported from /pg/index.js");
    expect(missingPackage(other, 'pg', 'F')).toBe(other);
    const broken = new SyntaxError('Unexpected token');
    expect(missingPackage(broken, 'pg', 'F')).toBe(broken);
  });
});
