/**
 * The files and databases packs, with the loss shown for real (a real rm, a
 * real sqlite3 and psql), then refused; the other packs refused beside their
 * harmless neighbours; the `packs` option; `hookwise guard shell --explain`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadShellJudge, shellGuard } from '../../src/guards/index.js';
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
const judge = async (r: Repo, command: string, packs?: Record<string, boolean>) =>
  (await loadShellJudge({ workspace: r.dir, ...(packs && { packs }) })).judge(command, r.dir);

describe('files: rm -r and find -delete of work git cannot restore', () => {
  it('rm -rf of untracked work loses it for real; refused with the count, while tracked unchanged files and build output may go', async () => {
    const scratch = repo();
    scratch.write('src/draft.ts', 'a day of untracked work');
    runBash(scratch.dir, 'rm -rf src');
    runBash(scratch.dir, 'git checkout -- . || true');
    expect(scratch.exists('src/a.ts')).toBe(true); // git brought the tracked file back ...
    expect(scratch.exists('src/draft.ts')).toBe(false); // ... and nothing brings the draft back

    const r = repo({ 'src/a.ts': 'a\n', 'docs/guide.md': '# g\n' });
    r.write('src/draft.ts', 'a day of untracked work');
    r.write('node_modules/x/index.js', 'x');
    const d = await judge(r, 'rm -rf src');
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/\[files\/unrestorable\] `rm -rf src` deletes 1 file \(src\/draft\.ts\) that git cannot restore/);
    for (const cmd of ['rm -rf docs', 'rm -rf node_modules', 'rm -rf dist', 'rm -r src/a.ts', 'rm -rf not-there'])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
    r.write('docs/guide.md', 'edited');
    expect((await judge(r, 'rm -rf docs')).reason).toMatch(/1 file \(docs\/guide\.md\)/);
  });

  it('a find -delete that spares only src deletes .git for real, and is refused, -prune form included', async () => {
    const scratch = repo();
    runBash(scratch.dir, "find . ! -path './src*' -delete 2>/dev/null || true");
    expect(scratch.exists('.git')).toBe(false);
    expect(scratch.exists('src/a.ts')).toBe(true);

    const r = repo();
    expect((await judge(r, 'find . -path ./src -prune -o -delete')).decision).toBe('deny');
    expect((await judge(r, "find . ! -path './src*' -delete")).decision).toBe('deny');
    expect((await judge(r, "find . -name '*.pyc' -delete")).decision).toBe('allow');
    r.write('src/new.md', 'untracked');
    expect((await judge(r, "find . -name '*.md' -delete")).reason).toContain('[files/unrestorable]');
  });

  it("find -exec rm, rsync --delete and an interpreter's recursive delete lose untracked work for real; refused, while build output may go", async () => {
    const scratch = repo();
    scratch.write('src/draft.ts', 'untracked draft');
    scratch.write('notes/todo.md', 'untracked notes');
    scratch.write('lib/x.ts', 'untracked lib');
    runBash(scratch.dir, "find src -name '*.ts' -exec rm {} +");
    runBash(scratch.dir, 'mkdir -p empty && rsync -a --delete empty/ notes/');
    runBash(scratch.dir, `python3 -c "import shutil; shutil.rmtree('lib')"`);
    runBash(scratch.dir, 'git checkout -- . || true');
    for (const lost of ['src/draft.ts', 'notes/todo.md', 'lib/x.ts']) expect(scratch.exists(lost), lost).toBe(false);

    const r = repo();
    r.write('src/draft.ts', 'untracked draft');
    r.write('notes/todo.md', 'untracked notes');
    r.write('node_modules/x/index.js', 'x');
    for (const cmd of [
      "find src -name '*.ts' -exec rm {} +",
      'find . -name src -type d -exec rm -rf {} +',
      'find . -type f -execdir rm -f {} \\;',
      'rsync -a --delete empty/ notes/',
      'rsync -av --delete-after ./ src/',
      `python3 -c "import shutil; shutil.rmtree('notes')"`,
      `node -e "require('fs').rmSync('src', { recursive: true, force: true })"`,
      `ruby -e 'require "fileutils"; FileUtils.rm_rf("notes")'`,
    ]) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toContain('[files/unrestorable]');
    }
    for (const cmd of [
      'find . -name node_modules -type d -prune -exec rm -rf {} +',
      "find . -name '*.pyc' -exec rm -f {} +",
      'find src -name b.ts -exec rm {} +',
      'rsync -a --delete src/ backup/',
      'rsync -an --delete empty/ notes/',
      'rsync -a --delete notes/ deploy@host:/srv/notes/',
      `python3 -c "import shutil; shutil.rmtree('node_modules')"`,
      `python3 -c "import shutil; shutil.rmtree('/tmp/demo')"`,
    ])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });

  it('outside any repository a recursive delete of files is asked or refused (hookwise cannot tell)', async () => {
    const r = repo();
    fs.rmSync(path.join(r.dir, '.git'), { recursive: true, force: true });
    const d = await judge(r, 'rm -rf src');
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/^hookwise cannot tell what this would destroy: \[files\/no-repository\]/);
    const asked = (await loadShellJudge({ workspace: r.dir, interactive: true })).judge('rm -rf src', r.dir);
    expect(asked.decision).toBe('ask');
  });
});

describe('files: shred, mv out of the workspace, deletes of run-time paths, and the temporary folders', () => {
  it('shred and mv to /tmp lose uncommitted work for real; refused, while a rename inside and shred of build output are allowed', async () => {
    const scratch = repo();
    scratch.write('src/a.ts', 'a day of work\n');
    scratch.write('notes.md', 'untracked notes');
    runBash(scratch.dir, 'shred -u src/a.ts');
    runBash(scratch.dir, 'git checkout -- . || true');
    expect(scratch.read('src/a.ts')).toBe('export const a = 1;\n'); // the day of work is gone
    const away = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'hookwise-mv-'));
    runBash(scratch.dir, `mv notes.md ${away}/ && rm -rf ${away}`);
    expect(scratch.exists('notes.md')).toBe(false);

    const r = repo();
    r.write('src/a.ts', 'a day of work\n');
    r.write('notes.md', 'untracked notes');
    r.write('dist/x.js', 'built');
    for (const cmd of ['shred -u src/a.ts', 'mv notes.md /tmp/', 'mv -t /tmp src']) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toContain('[files/unrestorable]');
    }
    for (const cmd of ['mv notes.md docs.md', 'shred -u dist/x.js', 'mv src/b.ts /tmp/'])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });

  it('xargs rm -rf and rm -rf "$DIR" delete what is known only when they run: refused (asked when interactive); $TMPDIR and mktemp are not', async () => {
    const scratch = repo();
    scratch.write('src/draft.ts', 'untracked draft');
    runBash(scratch.dir, 'find src -mindepth 1 -print0 | xargs -0 rm -rf');
    expect(scratch.exists('src/draft.ts')).toBe(false);

    const r = repo();
    for (const cmd of ['find src -mindepth 1 -print0 | xargs -0 rm -rf', 'rm -rf "$BUILD_DIR"']) {
      const d = await judge(r, cmd);
      expect(d.decision, cmd).toBe('deny');
      expect(d.reason, cmd).toContain('[files/run-time-path]');
      expect((await loadShellJudge({ workspace: r.dir, interactive: true })).judge(cmd, r.dir).decision, cmd).toBe('ask');
    }
    for (const cmd of ['rm -rf "$TMPDIR/build"', 'rm -rf "$(mktemp -d)"', 'rm -rf /tmp/build', 'rm -rf /var/tmp/*'])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });

  it('writes to /tmp run in the sandbox, whose /tmp each command gets empty; without the sandbox they are refused', async () => {
    const r = repo();
    const sandboxed = (await loadShellJudge({ workspace: r.dir })).judge('rm -rf /tmp/build && echo x > /tmp/out.txt', r.dir);
    expect(sandboxed.decision).toBe('allow');
    expect(sandboxed.contained?.join(' ')).toMatch(/temporary folder/);
    const bare = (await loadShellJudge({ workspace: r.dir, sandbox: 'off' })).judge('rm -rf /tmp/build', r.dir);
    expect(bare.decision).toBe('deny');
    expect(bare.reason).toContain('outside the workspace');
  });
});

describe('files: one file deleted or emptied (rm, unlink, truncate); writing over one is an edit', () => {
  it('loses an untracked file and an uncommitted change for real, and is refused; tracked unchanged files, new files and edits are fine', async () => {
    const scratch = repo();
    scratch.write('notes.md', 'a day of notes\n');
    scratch.write('src/a.ts', 'uncommitted work\n');
    runBash(scratch.dir, 'rm notes.md && truncate -s 0 src/a.ts');
    expect(scratch.exists('notes.md')).toBe(false);
    expect(scratch.read('src/a.ts')).toBe('');

    const r = repo();
    r.write('notes.md', 'a day of notes\n');
    r.write('src/a.ts', 'uncommitted work\n');
    const d = await judge(r, 'rm notes.md');
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/\[files\/unrestorable\] `rm notes\.md` deletes notes\.md, which holds work git cannot restore \(untracked\)/);
    for (const bad of ['unlink notes.md', 'rm -f src/a.ts', 'truncate -s 0 src/a.ts'])
      expect((await judge(r, bad)).decision, bad).toBe('deny');
    expect((await judge(r, 'rm src/a.ts')).reason).toMatch(/changed since the last commit/);
    for (const good of [
      'rm src/b.ts',
      'rm missing.txt',
      'echo x >> notes.md',
      'echo x > new.md',
      'cp README.md new.md',
      'mv notes.md docs.md',
      'cp -n README.md notes.md',
      // Edits, as the agent's Write tool makes them (docs/guards.md#rule-packs).
      'echo x > src/a.ts',
      ': > notes.md',
      'cp README.md src/a.ts',
      'date | tee notes.md',
      'date | tee -a notes.md',
      'rm -f node_modules/x.js',
    ])
      expect((await judge(r, good)).decision, good).toBe('allow');
    // Staged, the content is in the index: git restores it.
    r.git('add', 'src/a.ts');
    expect((await judge(r, 'rm src/a.ts')).decision).toBe('allow');
  });
});

describe('a recursive delete of a temporary folder that holds the workspace', () => {
  it("reaches the workspace even in the sandbox, so it is refused; a sibling in /tmp is the sandbox's own", async () => {
    const r = repo(); // in os.tmpdir()
    const d = await judge(r, 'rm -rf ..');
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/which contains the workspace/);
    expect((await judge(r, 'rm -rf ../../')).decision).toBe('deny');
    expect((await judge(r, 'rm -rf ../other-build')).decision).toBe('allow');
  });
});

describe('databases', () => {
  it('DROP TABLE through sqlite3 loses the table for real, and is refused; a SELECT is allowed', async () => {
    const r = repo();
    execFileSync('sqlite3', [path.join(r.dir, 'app.db'), 'CREATE TABLE users (id int); INSERT INTO users VALUES (1);']);
    runBash(r.dir, 'sqlite3 app.db "DROP TABLE users"');
    expect(execFileSync('sqlite3', [path.join(r.dir, 'app.db'), '.tables'], { encoding: 'utf8' }).trim()).toBe('');
    for (const cmd of [
      'sqlite3 app.db "DROP TABLE users"',
      "sqlite3 app.db 'DELETE FROM users'",
      "sqlite3 app.db <<'EOF'\nUPDATE users SET id = 0;\nEOF",
    ])
      expect((await judge(r, cmd)).reason, cmd).toMatch(/\[databases\/(drop|delete-all|update-all)\]/);
    for (const cmd of ['sqlite3 app.db "SELECT * FROM users"', 'sqlite3 app.db "DELETE FROM users WHERE id = 1"'])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });

  it('psql -c, a here-doc and a piped statement are read; a real DROP TABLE on PostgreSQL is refused', async () => {
    const r = repo();
    const table = `hookwise_packs_${process.pid}_${Date.now()}`;
    const psql = (sql: string) =>
      execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-tAc', sql], { encoding: 'utf8' });
    psql(`CREATE TABLE ${table} (id int); INSERT INTO ${table} VALUES (1)`);
    runBash(r.dir, `psql -h 127.0.0.1 -U postgres -d test -c "DROP TABLE ${table}"`);
    expect(psql(`SELECT to_regclass('${table}') IS NULL`).trim()).toBe('t');
    for (const cmd of [
      `psql -h 127.0.0.1 -d test -c "DROP TABLE ${table}"`,
      "psql test <<'SQL'\nTRUNCATE orders;\nSQL",
      "echo 'DELETE FROM orders;' | psql test",
      'redis-cli FLUSHALL',
      'redis-cli -n 2 flushdb',
      'mongosh --eval "db.dropDatabase()"',
    ])
      expect((await judge(r, cmd)).decision, cmd).toBe('deny');
    for (const cmd of ['psql -c "SELECT 1"', 'psql -c "SELECT \'DROP TABLE x\'"', 'redis-cli GET flushall', 'redis-cli PING'])
      expect((await judge(r, cmd)).decision, cmd).toBe('allow');
  });
});

describe('containers, clouds, publishing: refused beside their harmless neighbours', () => {
  it.each([
    ['docker volume prune -f', 'docker volume ls', 'containers/volume-prune'],
    ['docker rm -f api', 'docker rm api', 'containers/rm-force'],
    ['kubectl delete ns prod', 'kubectl get ns', 'containers/kubectl-delete'],
    ['helm uninstall api', 'helm list', 'containers/helm-uninstall'],
    ['terraform destroy', 'terraform plan', 'clouds/terraform-destroy'],
    ['aws s3 rm s3://b --recursive', 'aws s3 ls s3://b', 'clouds/s3-rm'],
    ['aws s3 rb s3://b --force', 'aws s3 ls', 'clouds/s3-rb'],
    ['gcloud sql instances delete db', 'gcloud sql instances list', 'clouds/delete'],
    ['az group delete -n rg', 'az group list', 'clouds/delete'],
    ['npm publish', 'npm pack', 'publishing/publish'],
    ['cargo publish', 'cargo publish --dry-run', 'publishing/publish'],
    ['twine upload dist/*', 'twine check dist/*', 'publishing/publish'],
    ['git push origin --tags', 'git push origin main', 'publishing/git-push-tags'],
    ['gh repo delete acme/site --yes', 'gh repo view acme/site', 'clouds/forge-delete'],
    ['gh release delete v1.0.0 -y', 'gh release view v1.0.0', 'clouds/forge-delete'],
    ['gh api -X DELETE repos/acme/site', 'gh api -X GET repos/acme/site', 'clouds/forge-delete'],
    ['aws --profile prod s3api delete-bucket --bucket b', 'aws --profile prod s3api list-buckets', 'clouds/delete'],
    ['wrangler d1 execute db --command "TRUNCATE t"', 'wrangler d1 execute db --command "SELECT 1"', 'databases/truncate'],
    ['databricks schemas delete main.raw --force', 'databricks schemas list main', 'clouds/delete'],
    ['rclone purge remote:b', 'rclone ls remote:b', 'clouds/bucket-delete'],
    ['etcdctl del --prefix /', 'etcdctl get --prefix /', 'clouds/delete'],
    ['npx prisma migrate reset --force', 'npx prisma migrate deploy', 'databases/reset'],
    ['rails db:drop', 'rails db:migrate', 'databases/reset'],
    ['python3 manage.py flush --noinput', 'python3 manage.py migrate', 'databases/reset'],
    ['php artisan migrate:fresh', 'php artisan migrate', 'databases/reset'],
    ['podman system reset -f', 'podman system df', 'containers/system-prune'],
    [
      'aws ecr batch-delete-image --repository-name app --image-ids imageTag=v1',
      'aws ecr describe-images --repository-name app',
      'clouds/delete',
    ],
    ['az storage blob delete-batch -s uploads', 'az storage blob list -c uploads', 'clouds/delete'],
    ['gsutil -m rsync -r -d ./site gs://site', 'gsutil -m rsync -r ./site gs://site', 'clouds/s3-sync-delete'],
    ['./gradlew :lib:publish', './gradlew publishToMavenLocal', 'publishing/publish'],
    ['./mvnw -B release:perform', './mvnw -B verify', 'publishing/publish'],
  ])('%s is refused; %s is allowed', async (bad, good, rule) => {
    const r = repo();
    const d = await judge(r, bad);
    expect(d.decision).toBe('deny');
    expect(d.reason).toContain(`[${rule}]`);
    expect((await judge(r, good)).decision).toBe('allow');
  });

  it('terraform apply -auto-approve cannot be read before it runs: asked when interactive', async () => {
    const r = repo();
    const j = await loadShellJudge({ workspace: r.dir, interactive: true });
    const d = j.judge('terraform apply -auto-approve', r.dir);
    expect(d.decision).toBe('ask');
    expect(d.reason).toMatch(/^hookwise cannot tell what this would destroy: \[clouds\/terraform-auto-approve\]/);
  });
});

describe('the packs option', () => {
  it('turns a pack off per policy', async () => {
    const r = repo();
    r.write('src/a.ts', 'unsaved');
    expect((await judge(r, 'git reset --hard')).decision).toBe('deny');
    expect((await judge(r, 'git reset --hard', { git: false })).decision).toBe('allow');
    expect((await judge(r, 'terraform destroy', { clouds: false })).decision).toBe('allow');
    expect((await judge(r, 'terraform destroy', { git: false })).decision).toBe('deny');
  });

  it('is validated when the guard is made, with errors naming the field', () => {
    expect(() => shellGuard({ packs: { gti: true } as never })).toThrow(
      'shellGuard: packs.gti is not a pack; the packs are git, files, databases, containers, clouds, publishing',
    );
    expect(() => shellGuard({ packs: { git: 'yes' } as never })).toThrow('shellGuard: packs.git must be true or false, got "yes"');
    expect(() => shellGuard({ packs: ['git'] as never })).toThrow(/shellGuard: packs must be an object/);
  });
});

describe('hookwise guard shell --explain and hookwise check', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const bin = path.join(root, 'bin/hookwise.js');
  const cli = (args: string[], cwd: string) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' }) };
    } catch (e) {
      const err = e as { status: number; stdout: string };
      return { code: err.status, out: err.stdout };
    }
  };

  it('prints every simple command, the wrappers peeled, the rule that decided and what it looked at', { timeout: slack(180_000) }, () => {
    const r = repo();
    r.write('src/a.ts', 'unsaved');
    const { code, out } = cli(['guard', 'shell', '--explain', 'echo ok && env nice git reset --hard'], r.dir);
    expect(code).toBe(2);
    expect(out).toContain('parse: 2 simple commands');
    expect(out).toContain('1. echo ok');
    expect(out).toContain('2. git reset --hard   (wrappers peeled: env, nice)');
    expect(out).toContain('pack rules: git/reset-hard');
    expect(out).toMatch(/looked on disk: \n {2}git status --porcelain=v1 -z --untracked-files=all in .*: 1 entry/);
    expect(out).toContain('denied: [git/reset-hard] `git reset --hard` discards changes to 1 file (src/a.ts)');
  });

  it("check lists each shell guard's packs, on or off", { timeout: slack(180_000) }, () => {
    const r = repo();
    r.write(
      'hookwise.config.mjs',
      `import { shellGuard } from ${JSON.stringify(path.join(root, 'dist/guards/index.js'))};\nexport default { hooks: [shellGuard({ packs: { clouds: false } })] };\n`,
    );
    const { out } = cli(['check'], r.dir);
    expect(out).toMatch(/guard:shell packs\n {2}git +on/);
    expect(out).toMatch(/ {2}clouds +off/);
    expect(out).toMatch(/ {2}publishing +on/);
  });
});
