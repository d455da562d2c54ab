/**
 * The git pack, in real repositories: each test shows the loss happening when
 * the command runs unguarded, then the guard refusing it with a reason that
 * says what would be lost, and the harmless neighbour allowed.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadShellJudge } from '../../src/guards/index.js';
import { makeRepo, runBash, type Repo } from './repo-fixture.js';
import { slack } from '../support/slack.js';

const repos: Repo[] = [];
const repo = (files?: Record<string, string>) => {
  const r = makeRepo(files);
  repos.push(r);
  return r;
};
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

const judge = async (r: Repo, command: string, interactive = false) =>
  (await loadShellJudge({ workspace: r.dir, interactive })).judge(command, r.dir);

beforeAll(async () => {
  await loadShellJudge({ workspace: '/' });
});

describe('git reset --hard', () => {
  it('loses uncommitted changes for real, and is refused with the count of files', async () => {
    const scratch = repo();
    scratch.write('src/a.ts', 'work of a day\n');
    scratch.write('src/b.ts', 'more work\n');
    runBash(scratch.dir, 'git reset --hard');
    expect(scratch.read('src/a.ts')).toBe('export const a = 1;\n');

    const r = repo();
    r.write('src/a.ts', 'work of a day\n');
    r.write('src/b.ts', 'more work\n');
    const d = await judge(r, 'git reset --hard');
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('[git/reset-hard]');
    expect(d.reason).toMatch(/discards changes to 2 files \(src\/a\.ts, src\/b\.ts\)/);
    expect((await judge(r, 'git reset --hard HEAD~5')).decision).toBe('deny');
    expect((await judge(r, 'git reset --merge')).decision).toBe('deny');
  });

  it('is allowed when nothing uncommitted would be lost; git reset --soft and plain reset always are', async () => {
    const r = repo();
    expect((await judge(r, 'git reset --hard')).decision).toBe('allow');
    r.write('src/a.ts', 'changed\n');
    expect((await judge(r, 'git reset --soft HEAD~1')).decision).toBe('allow');
    expect((await judge(r, 'git reset src/a.ts')).decision).toBe('allow');
  });

  it('follows interactive when no repository can be read', async () => {
    const r = repo();
    const { rmSync } = await import('node:fs');
    rmSync(`${r.dir}/.git`, { recursive: true, force: true });
    r.write('.git', 'gitdir: /nonexistent\n');
    const headless = await judge(r, 'git reset --hard');
    expect(headless.decision).toBe('deny');
    expect(headless.reason).toMatch(/^hookwise cannot tell what this would destroy: \[git\/reset-hard\]/);
    expect((await judge(r, 'git reset --hard', true)).decision).toBe('ask');
    expect(headless.findings[0]!.level).toBe('irreversible');
  });
});

describe('git clean -f', () => {
  it('deletes untracked work for real, and is refused naming it', async () => {
    const scratch = repo();
    scratch.write('notes/plan.md', 'plan');
    runBash(scratch.dir, 'git clean -fd');
    expect(scratch.exists('notes/plan.md')).toBe(false);

    const r = repo();
    r.write('notes/plan.md', 'plan');
    for (const cmd of ['git clean -fd', 'git clean -fdx', 'git clean -f', 'git clean --force -d', 'git clean -df notes']) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toMatch(/\[git\/clean-force\].*1 file \(notes\/plan\.md\) that git does not track/);
    }
  });

  it('is allowed as a dry run, with nothing untracked, or when only ignored build output goes', async () => {
    const r = repo();
    r.write('node_modules/x/index.js', 'x');
    expect((await judge(r, 'git clean -fdx')).decision).toBe('allow');
    r.write('notes/plan.md', 'plan');
    expect((await judge(r, 'git clean -n')).decision).toBe('allow');
    expect((await judge(r, 'git clean -fdn')).decision).toBe('allow');
    expect((await judge(r, 'git clean -fd src')).decision).toBe('allow');
  });

  it('with -x counts ignored files that are not build output (a .env)', async () => {
    const r = repo();
    r.write('.gitignore', 'node_modules/\n.env\n');
    r.git('add', '.gitignore');
    r.git('commit', '-q', '-m', 'ignore');
    r.write('.env', 'TOKEN=1');
    expect((await judge(r, 'git clean -fd')).decision).toBe('allow');
    const d = await judge(r, 'git clean -fdx');
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('.env');
  });
});

describe('git checkout and git restore that discard', () => {
  it('overwrite a modified file for real, and are refused; a clean file or a branch switch is allowed', async () => {
    const scratch = repo();
    scratch.write('src/a.ts', 'unsaved\n');
    runBash(scratch.dir, 'git checkout -- src/a.ts');
    expect(scratch.read('src/a.ts')).toBe('export const a = 1;\n');

    const r = repo();
    r.write('src/a.ts', 'unsaved\n');
    for (const cmd of [
      'git checkout -- src/a.ts',
      'git checkout .',
      'git checkout HEAD src/a.ts',
      'git restore src/a.ts',
      'git restore .',
      'git checkout -f main',
      'git restore --worktree --staged src',
      'git switch -f main',
    ]) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toMatch(/\[git\/(checkout|restore|switch)-discard\].*1 file \(src\/a\.ts\)/);
    }
    for (const cmd of [
      'git checkout -- src/b.ts',
      'git restore README.md',
      'git restore --staged src/a.ts',
      'git checkout -b feature',
      'git checkout main',
      'git switch main',
    ])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });
});

describe('after a cd, each folder the command may run in is looked at', () => {
  it('cd src && git checkout -- a.ts is refused when src/a.ts changed, allowed when it did not', async () => {
    const r = repo();
    expect((await judge(r, 'cd src && git checkout -- a.ts')).decision).toBe('allow');
    r.write('src/a.ts', 'unsaved\n');
    const d = await judge(r, 'cd src && git checkout -- a.ts');
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('1 file (src/a.ts)');
    expect((await judge(r, 'cd src && git reset --hard')).reason).toContain('[git/reset-hard]');
  });
});

describe('git stash drop / clear', () => {
  it('delete stashed work for real, and are refused when there is a stash; allowed when there is none', async () => {
    const r = repo();
    expect((await judge(r, 'git stash drop')).decision).toBe('allow');
    r.write('src/a.ts', 'stashed work\n');
    r.git('stash');
    for (const cmd of ['git stash drop', 'git stash clear', 'git stash drop stash@{0}']) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason).toMatch(/\[git\/stash-(drop|clear)\]/);
    }
    expect((await judge(r, 'git stash list')).decision).toBe('allow');
    expect((await judge(r, 'git stash pop')).decision).toBe('allow');
    runBash(r.dir, 'git stash clear');
    expect(r.git('stash', 'list')).toBe('');
  });
});

describe('history: branch -D, reflog expire, gc --prune=now, update-ref -d, filter-branch, tag -d', () => {
  it('branch -D loses unmerged commits for real; it is refused and branch -d allowed', async () => {
    const r = repo();
    r.git('checkout', '-q', '-b', 'feature');
    r.write('f.txt', 'feature work');
    r.git('add', 'f.txt');
    r.git('commit', '-q', '-m', 'feature');
    const sha = r.git('rev-parse', 'HEAD').trim();
    r.git('checkout', '-q', 'main');
    runBash(r.dir, 'git branch -D feature');
    expect(r.git('branch', '--contains', sha).trim()).toBe('');
    // Clustered, `-d -f` is git's `-D` too.
    r.git('branch', 'again', sha);
    runBash(r.dir, 'git branch -df again');
    expect(r.git('branch', '--contains', sha).trim()).toBe('');
    for (const cmd of [
      'git branch -D feature',
      'git branch --delete --force feature',
      'git branch -d -f feature',
      'git branch -df feature',
      'git branch -fd feature',
      'git branch -vD feature',
      'git branch -M old main',
      'git branch -mf old main',
      'git branch -cf old main',
      'git branch --move --force old main',
    ])
      expect((await judge(r, cmd)).reason, cmd).toMatch(/\[git\/branch-force-(delete|move)\]/);
    expect((await judge(r, 'git branch -d feature')).decision).toBe('allow');
    expect((await judge(r, 'git branch -a')).decision).toBe('allow');
  });

  it.each([
    ['git reflog expire --expire=now --all', 'git/reflog-expire', 'git reflog show'],
    ['git gc --prune=now', 'git/gc-prune', 'git gc'],
    ['git gc --aggressive --prune=all', 'git/gc-prune', 'git gc --auto'],
    ['git update-ref -d refs/heads/main', 'git/update-ref-delete', 'git rev-parse HEAD'],
    ["git filter-branch --tree-filter 'rm -f x' HEAD", 'git/rewrite-history', 'git log --oneline'],
    ['git filter-repo --path src --invert-paths', 'git/rewrite-history', 'git log --stat'],
    ['git tag -d v1.0.0', 'git/tag-delete', 'git tag -l'],
    ['git tag -id v1.0.0', 'git/tag-delete', 'git tag -md v2.0.0'],
    ['git update-ref -dm why refs/heads/main', 'git/update-ref-delete', 'git update-ref -m d refs/heads/x HEAD'],
    ['git prune', 'git/prune', 'git prune --dry-run'],
  ])('%s is refused as %s; %s is allowed', async (bad, rule, good) => {
    const r = repo();
    const d = await judge(r, bad);
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain(`[${rule}]`);
    expect((await judge(r, good)).decision).toBe('allow');
  });
});

describe('git push --force', () => {
  it('overwrites a teammate’s commit on the remote for real; refused without --force-with-lease', async () => {
    const remote = repo();
    remote.git('config', 'receive.denyCurrentBranch', 'ignore');
    const mine = repo();
    mine.git('remote', 'add', 'origin', remote.dir);
    mine.git('fetch', '-q', 'origin');
    mine.git('reset', '-q', '--hard', 'origin/main');
    remote.write('teammate.txt', 'theirs');
    remote.git('add', 'teammate.txt');
    remote.git('commit', '-q', '-m', 'teammate');
    const theirs = remote.git('rev-parse', 'HEAD').trim();
    mine.write('mine.txt', 'mine');
    mine.git('add', 'mine.txt');
    mine.git('commit', '-q', '-m', 'mine');
    runBash(mine.dir, 'git push -q --force origin main');
    expect(remote.git('branch', '--contains', theirs).trim()).toBe('');

    for (const cmd of [
      'git push --force origin main',
      'git push -f',
      'git push --force=true',
      'git push origin +main',
      'git push -fu origin main',
      'git push --mirror',
      'git push origin --delete old',
      'git push origin :old',
    ]) {
      const d = await judge(mine, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toMatch(/\[git\/push-(force|delete)\]/);
    }
    for (const cmd of [
      'git push',
      'git push origin main',
      'git push --force-with-lease origin main',
      'git push -u origin feature',
      'git push --dry-run --force',
    ])
      expect((await judge(mine, cmd)).decision, cmd).toBe('allow');
  });

  it('-d in a cluster deletes a remote branch for real; refused as -d is', async () => {
    const remote = repo();
    remote.git('branch', 'old');
    const mine = repo();
    mine.git('remote', 'add', 'origin', remote.dir);
    runBash(mine.dir, 'git push -qd origin old');
    expect(remote.git('branch', '--list', 'old').trim()).toBe('');
    for (const cmd of ['git push -qd origin old', 'git push -vd origin old', 'git push -d origin old'])
      expect((await judge(mine, cmd)).reason, cmd).toContain('[git/push-delete]');
    for (const cmd of ['git push -nd origin old', 'git push -o d origin main'])
      expect((await judge(mine, cmd)).decision, cmd).toBe('allow');
  });
});

describe('option forms: clusters, attached values, --, and a lease beside --force', () => {
  it('reads -qf as -f and -bfeature as -b feature; after -- a word is a name, not an option', async () => {
    const scratch = repo();
    scratch.write('src/a.ts', 'work\n');
    runBash(scratch.dir, 'git switch -qf main');
    expect(scratch.read('src/a.ts')).toBe('export const a = 1;\n');

    const r = repo();
    r.write('src/a.ts', 'work\n');
    const d = await judge(r, 'git switch -qf main');
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('[git/switch-discard]');
    expect((await judge(r, 'git checkout -fq main')).decision).toBe('deny');
    expect((await judge(r, 'git checkout HEAD --pathspec-from-file=list.txt')).decision).toBe('deny');
    for (const good of [
      'git checkout -bfeature',
      'git checkout -qbfix-1',
      'git switch -- -f',
      'git worktree remove -- -f',
      'git clean -nf',
    ])
      expect((await judge(r, good)).decision, good).toBe('allow');
  });

  it('git branch -f moves an existing branch (its own commits are left behind) and is refused; creating one is not', async () => {
    const r = repo();
    r.git('branch', 'feature');
    const d = await judge(r, 'git branch -f feature HEAD~0');
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain('[git/branch-force-move]');
    expect((await judge(r, 'git branch --force feature')).decision).toBe('deny');
    expect((await judge(r, 'git branch -f brand-new')).decision).toBe('allow');
  });

  it('--force disables the lease (git-push(1)), so a lease beside --force is still a force push', async () => {
    const r = repo();
    for (const bad of [
      'git push --force-with-lease=main --force',
      'git push -f --force-with-lease',
      'git push --force-with-lease --no-force-with-lease -f',
    ])
      expect((await judge(r, bad)).reason, bad).toContain('[git/push-force]');
    expect((await judge(r, 'git push --force-with-lease=main:abc123 origin main')).decision).toBe('allow');
  });
});

describe('wrappers that fill in a command: env -P, env -, xargs -i/--replace/-J, parallel {2}', () => {
  it('judges the command each of them runs', async () => {
    const r = repo();
    r.write('src/a.ts', 'work\n');
    r.write('notes.md', 'notes\n');
    for (const bad of [
      'env -P /usr/bin git reset --hard',
      'env - git reset --hard',
      "printf 'src\\n' | xargs --replace bash -c 'rm -rf {}'",
      'printf "src\\n" | xargs -J {} rm -rf {}',
      'parallel git clean -f {2} ::: x ::: -ffdx',
      "parallel sh -c 'git clean -f {2}' ::: x ::: -ffdx",
      "echo 'git reset --hard' | parallel bash -c {}",
    ])
      expect((await judge(r, bad)).decision, bad).toBe('deny');
    // `xargs -i` takes its value only attached: `rm -rf` is given nothing.
    for (const good of [
      'echo src | xargs -i rm -rf',
      'parallel echo {1} {2} ::: a b ::: c d',
      'find . -name "*.ts" -exec echo -delete \\;',
    ])
      expect((await judge(r, good)).decision, good).toBe('allow');
  });
});

describe('a program, git verb or git option known only when it runs', () => {
  // `$(printf it)` prints what is known now (src/shell/words.ts): judged as the git verb it makes.
  const hidden = [
    'g$(printf it) reset --hard',
    '$CMD reset --hard',
    '/usr/b?n/git reset --hard',
    'x=git; $x clean -fdx',
    'git $(printf reset) --hard',
    'git reset $(printf -- --hard)',
    'git checkout $(printf .)',
  ];

  it('loses uncommitted work for real when hidden; refused where the repository holds such work, contained where it holds none', async () => {
    const scratch = repo();
    scratch.write('src/a.ts', 'work of a day\n');
    runBash(scratch.dir, 'g$(printf it) re$(printf set) --ha$(printf rd)');
    expect(scratch.read('src/a.ts')).toBe('export const a = 1;\n');

    const r = repo();
    r.write('src/a.ts', 'work of a day\n');
    for (const cmd of hidden) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toMatch(
        /\[(files\/unknown-program|git\/(unknown-verb|unknown-argument|reset-hard|checkout-discard))\].*1 file \(src\/a\.ts\)/,
      );
      // What hookwise cannot see is asked when interactive; a loss it sees is refused either way.
      expect((await judge(r, cmd, true)).decision, cmd).toBe(/unknown-/.test(d.reason) ? 'ask' : 'deny');
    }
    const clean = repo();
    for (const cmd of hidden) expect((await judge(clean, cmd)).decision, cmd).toBe('allow');
  });

  it('run-time values in git verbs that discard nothing are allowed', async () => {
    const r = repo();
    r.write('src/a.ts', 'work of a day\n');
    for (const cmd of [
      'git commit -m "$(cat README.md)"',
      'git push origin "$(git branch --show-current)"',
      'git diff "$BASE"...HEAD',
      'git add "$FILE"',
      // A substitution that prints a fixed word names that program: nothing is hidden.
      '$(echo hello)',
      '`echo pwd`',
      'git $(echo status)',
    ])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });
});

describe('every wrapper and shell form of each destructive git verb', () => {
  const verbs = [
    'git reset --hard',
    'git clean -fd',
    'git stash clear',
    'git branch -D feature',
    'git push --force origin main',
    'git checkout -- .',
  ];
  const forms = [
    (c: string) => `env ${c}`,
    (c: string) => `env GIT_PAGER=cat ${c}`,
    (c: string) => `command ${c}`,
    (c: string) => `builtin command ${c}`,
    (c: string) => `time ${c}`,
    (c: string) => `nohup ${c}`,
    (c: string) => `nice -n 5 ${c}`,
    (c: string) => `\\${c}`,
    (c: string) => c.replace(/^git/, '"git"'),
    (c: string) => c.replace(/^git/, "'git'"),
    (c: string) => c.replace(/ /g, '   '),
    (c: string) => `true && ${c}`,
    (c: string) => `false || ${c}`,
    (c: string) => `echo ok; ${c}`,
    (c: string) => `echo ok | ${c}`,
    (c: string) => `echo $(${c})`,
    (c: string) => `echo \`${c}\``,
    (c: string) => `(${c})`,
    (c: string) => `{ ${c}; }`,
    (c: string) => `bash -c '${c}'`,
    (c: string) => `/usr/bin/${c}`,
    (c: string) => `git -C . ${c.slice(4)}`,
    (c: string) => `git -c color.ui=never ${c.slice(4)}`,
  ];
  it('refuses each verb in each form', { timeout: slack(300_000) }, async () => {
    const r = repo();
    r.write('src/a.ts', 'unsaved\n');
    r.write('untracked.txt', 'new');
    r.git('stash', '--keep-index');
    r.write('src/a.ts', 'unsaved again\n');
    const j = await loadShellJudge({ workspace: r.dir });
    const misses: string[] = [];
    for (const verb of verbs) for (const form of forms) if (j.judge(form(verb), r.dir).decision !== 'deny') misses.push(form(verb));
    expect(misses).toEqual([]);
  });
});
