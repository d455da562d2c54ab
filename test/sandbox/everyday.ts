import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../cli/run-cli.js';

/**
 * Everyday agent sessions (issue 38's first "Done when"): what an agent runs in a day's
 * work on a small project (install, build, test, lint, git, scratch files in /tmp,
 * package metadata from the registry, python scripts, in-place edits), one session per
 * topic, each command one Bash call. `{scratch}` is a name in /tmp of this run alone.
 */
export interface Session {
  name: string;
  commands: string[];
}

export const SESSIONS: Session[] = [
  {
    name: 'install, build, test and lint a Node project',
    commands: [
      'npm install',
      'npm install ./vendor/greet-1.0.0.tgz',
      'npm install left-pad@1.3.0',
      'npm ls --depth=0 | tail -n +2 | sed "s/ -> .*//" | sort',
      'npx tsc -p .',
      'npm run build',
      'node dist/index.js',
      'npm test',
      'node --test test/',
      'npm run lint',
      "node -e \"console.log(require('left-pad')('7', 3, '0'))\"",
      'npm view left-pad version',
      'npm view left-pad@1.3.0 license',
      'npm outdated left-pad; echo "outdated exit $?"',
      'npm cache verify > /dev/null && echo cache ok',
      'rm -rf dist && npm run build && ls dist',
      'npm uninstall left-pad && node -e "require(\'left-pad\')" 2>&1 | grep -c MODULE_NOT_FOUND',
      'curl -sS -o /dev/null -w "%{http_code}\\n" https://registry.npmjs.org/left-pad',
    ],
  },
  {
    name: 'git: init, commit, branch, switch, log',
    commands: [
      'git init -q && git status --short | sort',
      'git add -A && git commit -q -m "first commit" && git log --oneline',
      'git switch -c feature',
      'echo "more" >> README.md && git commit -q -am "change README" && git log --oneline | wc -l',
      'git branch',
      'git switch main && cat README.md',
      'git merge --ff-only feature -q && git log --format=%s',
      'git tag v1 && git tag',
      'git diff HEAD~1 --stat',
      'git show --stat --format=%s HEAD | head -3',
      'git branch -d feature',
      'git rev-parse --abbrev-ref HEAD',
      'git config user.name',
      'git stash list | wc -l',
      'git status',
    ],
  },
  {
    name: 'scratch files in /tmp between calls',
    commands: [
      'echo "build started" > /tmp/{scratch}.log',
      'echo "build done" >> /tmp/{scratch}.log && cat /tmp/{scratch}.log',
      'mkdir -p /tmp/{scratch}-dir/a/b && cp package.json /tmp/{scratch}-dir/a/b/ && ls /tmp/{scratch}-dir/a/b',
      'cat /tmp/{scratch}-dir/a/b/package.json | head -2',
      'd=$(mktemp -d) && echo inside > "$d/f" && cat "$d/f" && rm -rf "$d"',
      "python3 -c \"import tempfile; f = tempfile.NamedTemporaryFile(mode='w', delete=False); f.write('x'); f.close(); print(open(f.name).read())\"",
      'npm test > /tmp/{scratch}-test.txt 2>&1; grep -c "^# pass" /tmp/{scratch}-test.txt',
      'tar czf /tmp/{scratch}.tgz src && tar tzf /tmp/{scratch}.tgz | sort',
      'rm -rf /tmp/{scratch}-dir /tmp/{scratch}.tgz && ls /tmp/{scratch}-dir 2>&1 | sed "s/.*No such.*/gone/"',
      'ls /tmp/{scratch}*',
      'echo temp > /var/tmp/{scratch}.txt && cat /var/tmp/{scratch}.txt',
    ],
  },
  {
    name: 'edits: mkdir -p, cp, mv, sed -i, heredocs',
    commands: [
      'mkdir -p src/utils/deep',
      'cp src/index.ts src/utils/copy.ts && ls src/utils',
      'mv src/utils/copy.ts src/utils/renamed.ts && ls src/utils',
      "sed -i 's/hello/goodbye/' src/utils/renamed.ts && grep -n goodbye src/utils/renamed.ts",
      "sed -i.bak -e 's/1.0.0/1.1.0/' package.json && grep version package.json && ls package.json*",
      'find . -name "*.ts" -not -path "./node_modules/*" | sort',
      'wc -l src/index.ts',
      "cat > notes.md <<'EOF'\n# Notes\n- one\n- two\nEOF\ncat notes.md",
      'touch run.sh && chmod +x run.sh && ls -l run.sh | cut -c1-10',
      'ln -s README.md link.md && readlink link.md && cat link.md',
      'rm -r src/utils && ls src',
      'printf "a\\nb\\n" | tee out.txt | wc -l',
      'diff <(echo a) <(echo b); echo "diff exit $?"',
      'grep -rn "export" src | sort',
      'echo "x" > "file with spaces.txt" && ls "file with spaces.txt"',
    ],
  },
  {
    name: 'python scripts',
    commands: [
      'python3 scripts/report.py data.csv',
      "python3 -c \"import json; print(json.load(open('report.json'))['total'])\"",
      'python3 -m json.tool package.json | head -3',
      'python3 -m venv .venv && .venv/bin/python -c "import sys; print(sys.prefix != sys.base_prefix)"',
      'python3 -c "import os; print(os.getcwd() == os.path.realpath(\'.\'))"',
      'python3 - <<\'EOF\'\nimport pathlib\np = pathlib.Path("gen")\np.mkdir(exist_ok=True)\n(p / "a.txt").write_text("generated\\n")\nprint(sorted(x.name for x in p.iterdir()))\nEOF',
      'python3 scripts/missing.py; echo "exit $?"',
    ],
  },
  {
    name: 'a Makefile build',
    commands: ['make', './build/hello', 'make test', 'make clean && ls build 2>&1 | sed "s/.*No such.*/gone/"', 'make -s all && ls build'],
  },
  {
    name: 'looking around',
    commands: [
      'pwd',
      'ls',
      'echo "$HOME"',
      'node --version',
      'git --version | cut -d" " -f1-2',
      'uname -s',
      'whoami',
      'cat /etc/os-release | head -1',
      'which node npm git python3 | wc -l',
      'du -sh src | cut -f2',
      'env | grep -c "^PATH="',
      'test -w . && echo writable',
    ],
  },
];

/** The project every session starts from: a small TypeScript package with tests, a Python script, a C program. */
export function writeProject(dir: string, tarball: string, typescript: string): void {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name: 'demo',
        version: '1.0.0',
        private: true,
        scripts: { build: 'tsc -p .', test: 'node --test test/', lint: 'tsc --noEmit -p . && node --check scripts/check.js' },
        devDependencies: { typescript: `file:vendor/${path.basename(typescript)}` },
      },
      null,
      2,
    )}\n`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { outDir: 'dist', module: 'commonjs', target: 'es2022', strict: true, types: [] }, include: ['src'] }, null, 2)}\n`,
    'scripts/check.js': "console.log('ok');\n",
    'src/index.ts': "export function greet(name: string): string {\n  return `hello ${name}`;\n}\n\nconsole.log(greet('world'));\n",
    'test/greet.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\n\ntest('adds', () => assert.equal(1 + 1, 2));\n",
    'README.md': '# demo\n',
    '.gitignore': 'node_modules/\ndist/\n.venv/\n.hookwise/\n',
    'data.csv': 'item,amount\napples,3\npears,4\n',
    'scripts/report.py':
      'import csv, json, sys\n\nrows = list(csv.DictReader(open(sys.argv[1])))\ntotal = sum(int(r["amount"]) for r in rows)\njson.dump({"total": total}, open("report.json", "w"))\nprint(f"{len(rows)} rows, total {total}")\n',
    'hello.c': '#include <stdio.h>\n\nint main(void) {\n  printf("hello from C\\n");\n  return 0;\n}\n',
    Makefile:
      'all: build/hello\n\nbuild/hello: hello.c\n\tmkdir -p build\n\tcc -o build/hello hello.c\n\ntest: build/hello\n\t./build/hello | grep -q "hello from C" && echo "test passed"\n\nclean:\n\trm -rf build\n\n.PHONY: all test clean\n',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  fs.mkdirSync(path.join(dir, 'vendor'), { recursive: true });
  for (const file of [tarball, typescript]) fs.copyFileSync(file, path.join(dir, 'vendor', path.basename(file)));
}

/** A local package as `npm pack` makes it: what `npm install ./vendor/greet-1.0.0.tgz` installs. */
export function packLocal(root: string, env: NodeJS.ProcessEnv): string {
  const dir = path.join(root, 'greet');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'greet', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = (n) => `hi ${n}`;\n');
  execFileSync('npm', ['pack', '--silent'], { cwd: dir, env, stdio: 'pipe' });
  return path.join(dir, 'greet-1.0.0.tgz');
}

/** TypeScript as a tarball (this repository's copy): the project's devDependency, installed without the registry. */
export function packTypescript(root: string, env: NodeJS.ProcessEnv): string {
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', root, path.join(repoRoot, 'node_modules', 'typescript')], {
    env,
    stdio: 'pipe',
  })
    .toString()
    .trim()
    .split('\n')
    .at(-1)!;
  return path.join(root, name);
}

/**
 * What two runs of a command may differ in without a user noticing: the folder each
 * ran in, times and durations, commit hashes, and npm's "in 2s".
 */
export function normalise(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of roots) out = out.replaceAll(root, '<root>');
  return out
    .replace(/\b[0-9a-f]{7,40}\b/g, '<hash>')
    .replace(/\b\d+(\.\d+)?\s?(ms|s|m)\b/g, '<time>')
    .replace(/duration_ms:? [\d.]+/g, 'duration_ms <time>')
    .replace(/\b\d{2}:\d{2}:\d{2}\b/g, '<clock>')
    .replace(/\(transform .*\)/g, '(<phases>)')
    .replace(/^\s*Duration\s.*$/gm, 'Duration <time>');
}
