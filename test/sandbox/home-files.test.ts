import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_SSH, guardEngine, hostLine, makeRange, runBash, type Range } from './harness.js';

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

async function run(command: string) {
  const { line, reason } = await hostLine(guardEngine(r), r, command);
  if (line === undefined) return { refused: reason ?? '', stdout: '', stderr: '', status: null };
  return { refused: undefined, ...(await runBash(r, line)) };
}

describe('the home folder: public halves readable, secrets masked', () => {
  it('~/.ssh/*.pub and known_hosts are readable beside the masked private key', async () => {
    fs.writeFileSync(path.join(r.home, '.ssh', 'id_ed25519.pub'), 'ssh-ed25519 AAAA-public\n');
    fs.writeFileSync(path.join(r.home, '.ssh', 'known_hosts'), 'github.com ssh-ed25519 AAAA\n');
    const pub = await run('cat ~/.ssh/id_ed25519.pub ~/.ssh/known_hosts');
    expect(pub.refused).toBeUndefined();
    expect(pub.stdout).toBe('ssh-ed25519 AAAA-public\ngithub.com ssh-ed25519 AAAA\n');
    // The private key, read where the parser cannot see it: masked by the kernel, not only refused by the parser.
    const key = await run(
      `python3 -c "import os, glob; print([open(f).read() for f in glob.glob(os.path.expanduser('~/.ss' + 'h/id_*'))])"`,
    );
    expect(key.refused).toBeUndefined();
    expect(key.stdout).toContain('ssh-ed25519 AAAA-public');
    expect(key.stdout).not.toContain(FAKE_SSH);
    // Control: the key is there outside.
    expect(fs.readFileSync(path.join(r.home, '.ssh', 'id_rsa'), 'utf8')).toBe(FAKE_SSH);
  });

  it("~/.claude/.credentials.json (Claude Code's login) is refused by the parser and masked in the sandbox", async () => {
    fs.mkdirSync(path.join(r.home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(r.home, '.claude', '.credentials.json'), '{"token":"sk-ant-oat01-FAKE"}');
    const direct = await run('cat ~/.claude/.credentials.json');
    expect(direct.refused).toMatch(/Claude Code's login token/);
    const indirect = await run(`python3 -c "import os; print(repr(open(os.path.expanduser('~/.claude/.credent' + 'ials.json')).read()))"`);
    expect(indirect.refused).toBeUndefined();
    // /dev/null bound without device access (bubblewrap binds nodev): opening it is refused.
    expect(indirect.stdout).not.toContain('sk-ant');
    expect(indirect.stderr).toMatch(/Permission denied/);
    // Control: outside, the same command prints the token.
    const control = await runBash(r, `python3 -c "import os; print(open(os.path.expanduser('~/.claude/.credentials.json')).read())"`);
    expect(control.stdout).toContain('sk-ant-oat01-FAKE');
  });
});
