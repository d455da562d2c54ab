/**
 * Issue 23, finding 2: the agent must not reach hookwise's own state. Each attack
 * is first run for real with bash (or better-sqlite3 for the SQL) on an
 * unprotected copy of the workspace, to show it does damage; then the same call
 * goes through `hookwise fire PreToolUse` (spawned, built CLI) with the shell,
 * path and secret guards on, and is refused, and the real `.hookwise/` is
 * unchanged.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore } from '../../src/audit/store.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { makeFixture, type Fixture } from './fixture.js';
import { unsealed } from '../support/sandbox-line.js';
import { slack } from '../support/slack.js';

let f: Fixture;
let config: string;
let state: string;
let copy: string;

/** Every file of a folder with its bytes, to show nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) out[name] = fs.readFileSync(path.join(dir, name)).toString('base64');
  return out;
}

beforeAll(() => {
  if (!fs.existsSync(path.join(repoRoot, 'dist/guards/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  f = makeFixture();
  state = path.join(f.ws, '.hookwise');
  const store = new AuditStore({ path: path.join(state, 'audit.db'), stateDir: path.join(f.root, 'user-state') });
  for (const seq of [1, 2, 3, 4]) store.append({ kind: 'custom', ts: new Date().toISOString(), sessionId: 's', data: { seq } });
  store.closeSync();
  config = path.join(f.root, 'guards.config.mjs');
  const guards = pathToFileURL(path.join(repoRoot, 'dist/guards/index.js')).href;
  fs.writeFileSync(
    config,
    `import { shellGuard, pathGuard, secretGuard } from ${JSON.stringify(guards)};\nexport default { hooks: [shellGuard({ home: ${JSON.stringify(f.home)} }), pathGuard({ home: ${JSON.stringify(f.home)} }), ...secretGuard()] };\n`,
  );
});
afterAll(() => f.cleanup());

/** A fresh unprotected copy of the workspace's `.hookwise/`, where the attack is run for real. */
function freshCopy(): string {
  copy = path.join(f.root, 'unprotected');
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(copy);
  fs.cpSync(state, path.join(copy, '.hookwise'), { recursive: true });
  return copy;
}

async function fire(
  input: Record<string, unknown>,
): Promise<{ decision: string | null; reason?: string; updatedInput?: { command?: string } | null }> {
  const r = await runCli(['fire', 'PreToolUse', '--config', config], {
    cwd: f.ws,
    stdin: JSON.stringify({ session_id: 's', cwd: f.ws, ...input }),
  });
  expect([0, 2], r.stderr).toContain(r.code);
  return JSON.parse(r.stdout) as { decision: string | null; reason?: string; updatedInput?: { command?: string } | null };
}

const bash = (command: string, cwd: string) => execFileSync('bash', ['-c', command], { cwd, stdio: 'pipe' });

describe('hookwise state is out of the agent reach (spawned fire, real files)', () => {
  it(
    'refuses rm -rf .hookwise, which deletes the trail when unguarded',
    async () => {
      const unprotected = freshCopy();
      bash('rm -rf .hookwise', unprotected);
      expect(fs.existsSync(path.join(unprotected, '.hookwise'))).toBe(false);

      const before = snapshot(state);
      const out = await fire({ tool_name: 'Bash', tool_input: { command: 'rm -rf .hookwise' } });
      expect(out.decision).toBe('deny');
      expect(out.reason).toMatch(/hookwise's own state/);
      expect(snapshot(state)).toEqual(before);
    },
    slack(60_000),
  );

  it(
    'refuses overwriting the anchor from the shell and with the Write tool',
    async () => {
      const unprotected = freshCopy();
      bash('echo x > .hookwise/audit.db.head', unprotected);
      expect(fs.readFileSync(path.join(unprotected, '.hookwise/audit.db.head'), 'utf8')).toBe('x\n');

      const before = snapshot(state);
      expect((await fire({ tool_name: 'Bash', tool_input: { command: 'echo x > .hookwise/audit.db.head' } })).decision).toBe('deny');
      const write = await fire({ tool_name: 'Write', tool_input: { file_path: path.join(state, 'audit.db.head'), content: 'x' } });
      expect(write.decision).toBe('deny');
      expect(write.reason).toMatch(/hookwise's own state/);
      expect(
        (await fire({ tool_name: 'Edit', tool_input: { file_path: '.hookwise/audit.db', old_string: 'a', new_string: 'b' } })).decision,
      ).toBe('deny');
      expect(snapshot(state)).toEqual(before);
    },
    slack(60_000),
  );

  it(
    'refuses sqlite3 and python sqlite3 on the audit database, whose SQL drops the trigger and cuts the tail when unguarded',
    async () => {
      const unprotected = freshCopy();
      const sql = 'DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE seq > 3';
      const db = new Database(path.join(unprotected, '.hookwise/audit.db'));
      db.exec(sql);
      expect(db.prepare('SELECT count(*) FROM audit_log').pluck().get()).toBe(3);
      db.close();

      const before = snapshot(state);
      const sqlite = await fire({ tool_name: 'Bash', tool_input: { command: `sqlite3 .hookwise/audit.db '${sql}'` } });
      expect(sqlite.decision).toBe('deny');
      expect(sqlite.reason).toMatch(/hookwise's own state/);
      const python = `python3 -c "import sqlite3; c = sqlite3.connect('.hookwise/audit.db'); c.executescript('${sql}')"`;
      // Python's SQL is not parsed: it is refused without the OS sandbox, and with it runs where .hookwise/ is read-only.
      const judged = await fire({ tool_name: 'Bash', tool_input: { command: python } });
      if (judged.decision !== 'deny') {
        expect(unsealed(judged.updatedInput?.command)).toContain('/bwrap ');
        expect(() => bash(judged.updatedInput!.command!, f.ws)).toThrow(/readonly|read-only|unable to open database file/i);
      }
      expect(snapshot(state)).toEqual(before);
    },
    slack(60_000),
  );

  it(
    'refuses reading the audit key, and lets the agent read the trail itself',
    async () => {
      expect((await fire({ tool_name: 'Bash', tool_input: { command: 'cat .hookwise/audit.key' } })).decision).toBe('deny');
      expect((await fire({ tool_name: 'Read', tool_input: { file_path: '.hookwise/audit.key' } })).decision).toBe('deny');
      expect((await fire({ tool_name: 'Bash', tool_input: { command: 'ls .hookwise' } })).decision).toBeNull();
    },
    slack(60_000),
  );
});
