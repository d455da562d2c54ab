/**
 * The destructive-command corpus, judged headless in a real repository with
 * uncommitted work: destructive commands must be refused and look-alikes
 * allowed, each at 97% or more (the bar); every miss is listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellJudge, type ShellJudge } from '../../src/guards/index.js';
import { DESTRUCTIVE, LOOK_ALIKES } from './destructive-corpus.js';
import { makeRepo, type Repo } from './repo-fixture.js';
import { slack } from '../support/slack.js';

let repo: Repo;
let judge: ShellJudge;
/** Each command judged once: the pack-and-rule check reads the decisions the 97% check made (a judgment runs git). */
const decisions = new Map<string, ReturnType<ShellJudge['judge']>>();
const judged = (command: string) => {
  let d = decisions.get(command);
  if (d === undefined) decisions.set(command, (d = judge.judge(command, repo.dir)));
  return d;
};

beforeAll(async () => {
  repo = makeRepo({
    'src/a.ts': 'export const a = 1;\n',
    'src/b.ts': 'export const b = 2;\n',
    'src/lib/util.ts': 'export {};\n',
    'docs/guide.md': '# guide\n',
    'README.md': '# r\n',
  });
  repo.write('src/lib/util.ts', 'export const changed = true;\n');
  repo.git('stash');
  repo.write('src/a.ts', 'uncommitted work\n');
  repo.write('src/lib/util.ts', 'export const changed = true;\n');
  repo.write('src/lib/draft.ts', 'untracked draft\n');
  repo.write('notes.md', 'untracked notes\n');
  repo.write('node_modules/pkg/index.js', 'module.exports = 1;\n');
  repo.write('dist/index.js', 'built\n');
  judge = await loadShellJudge({ workspace: repo.dir, home: `${repo.dir}/../home-for-corpus` });
});
afterAll(() => repo.cleanup());

describe('the destructive-command corpus', () => {
  it('has at least 150 destructive commands and 250 look-alikes, none twice', () => {
    expect(DESTRUCTIVE.length).toBeGreaterThanOrEqual(150);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(250);
    const all = [...DESTRUCTIVE, ...LOOK_ALIKES].map((c) => c.command);
    expect(all.filter((cmd, i) => all.indexOf(cmd) !== i)).toEqual([]);
  });

  it('refuses 97% or more of the destructive commands, each with a reason naming what is lost', { timeout: slack(600_000) }, () => {
    const missed: string[] = [];
    for (const c of DESTRUCTIVE) {
      const d = judged(c.command);
      if (d.decision !== 'deny') missed.push(`${c.pack}: ${c.command}`);
      else expect(d.reason.length, c.command).toBeGreaterThan(20);
    }
    expect(missed.length / DESTRUCTIVE.length, missed.join('\n')).toBeLessThanOrEqual(0.03);
    expect(missed).toEqual([]);
  });

  it('allows 97% or more of the look-alikes', { timeout: slack(600_000) }, () => {
    const refused: string[] = [];
    for (const c of LOOK_ALIKES) {
      const d = judged(c.command);
      if (d.decision !== 'allow') refused.push(`${c.pack}: ${c.command}  -- ${d.reason}`);
    }
    expect(refused.length / LOOK_ALIKES.length, refused.join('\n')).toBeLessThanOrEqual(0.03);
    expect(refused).toEqual([]);
  });

  it('names the pack and rule in every refusal a pack makes', { timeout: slack(600_000) }, () => {
    for (const c of DESTRUCTIVE.filter(
      (x) => x.pack !== 'files' && !/[;&|`$(){]|^(env|command|builtin|time|nohup|nice|\\|")| {2}/.test(x.command),
    )) {
      const d = judged(c.command);
      expect(d.reason, c.command).toMatch(/\[(git|files|databases|containers|clouds|publishing)\/[a-z0-9-]+\]/);
    }
  });
});
