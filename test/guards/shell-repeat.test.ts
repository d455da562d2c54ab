import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellJudge, type ShellJudge } from '../../src/guards/index.js';
import { ShellJudgement } from '../../src/guards/shell/judge.js';
import type { PackName } from '../../src/guards/shell/packs/index.js';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { ParsedScripts } from '../../src/shell/parsed.js';
import { loadBashParser } from '../../src/shell/parser.js';
import { DANGEROUS, HARMLESS } from './shell-corpus.js';
import { fill, makeFixture, type Fixture } from './fixture.js';

let f: Fixture;
let judge: ShellJudge;
beforeAll(async () => {
  f = makeFixture();
  // The parser's own judgement: the fixture's outside folder is in /tmp, which the sandbox would contain.
  judge = await loadShellJudge({ workspace: f.ws, home: f.home, sandbox: 'off' });
});
afterAll(() => f.cleanup());

/** The same command, judged often enough to come from the kept script (first, second, later sightings). */
function judgeRepeatedly(command: string, times = 3) {
  return Array.from({ length: times }, () => judge.judge(command, f.ws));
}

describe('a command judged again (its parsed script is kept)', () => {
  it('is judged against the file system as it is now: a symlink made between two identical calls changes the answer', () => {
    const command = 'echo hi > notes/out.txt';
    for (const d of judgeRepeatedly(command)) expect(d.decision, d.reason).toBe('allow');
    const link = path.join(f.ws, 'notes');
    fs.symlinkSync(f.outside, link);
    try {
      const d = judge.judge(command, f.ws);
      expect(d.decision).toBe('deny');
      expect(d.reason).toContain(`through a symlink: ${path.join(f.outside, 'out.txt')}`);
    } finally {
      fs.unlinkSync(link);
    }
    expect(judge.judge(command, f.ws).decision).toBe('allow');
  });

  it('comes from the kept script, and what is judged from it still follows the file system', async () => {
    const parser = await loadBashParser();
    const scripts = new ParsedScripts();
    // No rule packs: what is judged here is the kept script, not a pack's rule.
    const packs = new Set<PackName>();
    const options = { policy: new PathPolicy({ workspace: f.ws, home: f.home }), allow: [], ask: [], deny: [], scripts, packs };
    const findings = (command: string) => new ShellJudgement(parser, options, f.ws).run(command).findings;
    const command = 'echo hi > later/out.txt';
    expect(findings(command)).toEqual([]);
    expect(findings(command)).toEqual([]);
    expect(scripts.stats()).toMatchObject({ entries: 1, seen: 0 });
    const link = path.join(f.ws, 'later');
    fs.symlinkSync(f.outside, link);
    try {
      expect(findings(command).map((x) => x.level)).toEqual(['deny']);
      expect(scripts.stats()).toMatchObject({ entries: 1, seen: 0 });
    } finally {
      fs.unlinkSync(link);
    }
    expect(findings(command)).toEqual([]);
  });

  it('reads a file that became a link to a secret as the secret', () => {
    const command = 'cat notes.txt | head -5';
    const file = path.join(f.ws, 'notes.txt');
    fs.writeFileSync(file, 'plain notes');
    for (const d of judgeRepeatedly(command)) expect(d.decision, d.reason).toBe('allow');
    fs.rmSync(file);
    fs.symlinkSync(path.join(f.home, '.ssh', 'id_rsa'), file);
    try {
      const d = judge.judge(command, f.ws);
      expect(d.decision).toBe('deny');
      expect(d.reason).toMatch(/secret/);
    } finally {
      fs.rmSync(file);
    }
  });

  it('gets the same decision and reason every time, for the whole corpus', () => {
    for (const c of [...DANGEROUS, ...HARMLESS]) {
      const command = fill(c.command, f);
      const [first, ...again] = judgeRepeatedly(command, 4);
      for (const d of again) expect(d, command).toEqual(first);
    }
  });
});
