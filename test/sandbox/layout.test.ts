import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathPolicy } from '../../src/path-policy/judge.js';
import { layoutFor } from '../../src/sandbox/layout.js';
import { sandboxExec } from '../../src/sandbox/index.js';
import { FAKE_OUTSIDE, makeRange, type Range } from './harness.js';

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

/** Each mount costs the sandbox's start: the layout names each folder once and masks only what a command could see. */
describe('the layout mounts what it must, once', () => {
  it('shows a folder inside a shown one through that one, and nothing inside the workspace twice', () => {
    for (const d of ['.cargo/bin', '.local/bin']) fs.mkdirSync(path.join(r.home, d), { recursive: true });
    fs.mkdirSync(path.join(r.ws, 'node_modules', '.bin'), { recursive: true });
    const policy = new PathPolicy({ workspace: r.ws, home: r.home });
    const pathDirs = [path.join(r.home, '.cargo/bin'), path.join(r.home, '.local/bin'), path.join(r.ws, 'node_modules/.bin'), '/usr/bin'];
    const layout = layoutFor({ policy, pathDirs });
    expect(layout.readable).toEqual([r.home]);
    expect(layout.writable).toEqual([r.ws]);
  });

  it('masks a secret only where the command can see it; a hidden one stays unreadable', async () => {
    const secret = path.join(r.outside, 'secret.txt');
    const options = { workspace: r.ws, home: r.home, secrets: [secret] };
    const layout = layoutFor({ policy: new PathPolicy(options), pathDirs: [] });
    expect(layout.maskedFiles).toContain(path.join(r.ws, '.env'));
    expect(layout.maskedDirs).toContain(path.join(r.home, '.ssh'));
    // The folder beside the workspace is in the hidden /tmp and shown by nothing: no mount needed to hide the file.
    expect(layout.maskedFiles).not.toContain(secret);
    const result = await sandboxExec(`cat ${secret}; cat ${path.join(r.home, '.ssh', 'id_rsa')}`, { ...options, env: r.env });
    expect(result.stdout + result.stderr).not.toContain(FAKE_OUTSIDE);
    expect(result.stdout + result.stderr).not.toContain('FAKE-SSH');
  });
});

describe('the layout is kept between calls while the disk does not change', () => {
  it('is the same until a folder changes, and sees a second change stamped with the same time', async () => {
    fs.mkdirSync(path.join(r.home, 'awsA'));
    fs.mkdirSync(path.join(r.home, 'awsB'));
    fs.symlinkSync(path.join(r.home, 'awsA'), path.join(r.home, '.aws'));
    const policy = new PathPolicy({ workspace: r.ws, home: r.home });
    const pathDirs = [path.join(r.home, 'bin')];
    // Stamps younger than two seconds are not trusted (file systems stamp coarsely): wait until the range is older.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = layoutFor({ policy, pathDirs });
    expect(layoutFor({ policy, pathDirs })).toBe(first);
    expect(first.maskedDirs).toContain(path.join(r.home, 'awsA'));

    // A link retargeted outside the workspace: the mask follows it.
    fs.rmSync(path.join(r.home, '.aws'));
    fs.symlinkSync(path.join(r.home, 'awsB'), path.join(r.home, '.aws'));
    const retargeted = layoutFor({ policy, pathDirs });
    expect(retargeted.maskedDirs).toContain(path.join(r.home, 'awsB'));
    expect(retargeted.maskedDirs).not.toContain(path.join(r.home, 'awsA'));

    // A folder changed, read, then changed again under the same mtime (a coarse stamp): the second change is seen.
    const src = path.join(r.ws, 'src');
    fs.writeFileSync(path.join(src, 'b.txt'), 'b\n');
    // A whole second, so that setting it again gives the very same mtime.
    const stamp = Math.floor(Date.now() / 1000);
    fs.utimesSync(src, stamp, stamp);
    expect(layoutFor({ policy, pathDirs }).maskedFiles).not.toContain(path.join(src, '.env.local'));
    fs.writeFileSync(path.join(src, '.env.local'), 'LATE=1\n');
    fs.utimesSync(src, stamp, stamp);
    expect(layoutFor({ policy, pathDirs }).maskedFiles).toContain(path.join(src, '.env.local'));
  });

  it('sees a protected name created at the workspace root, and a git hooks folder created in .git', () => {
    const policy = new PathPolicy({ workspace: r.ws, home: r.home });
    fs.rmSync(path.join(r.ws, '.git', 'hooks'), { recursive: true });
    const before = layoutFor({ policy, pathDirs: [] });
    expect(before.sweep).toContain('.mcp.json');
    expect(before.readOnly).not.toContain(path.join(r.ws, '.git', 'hooks'));
    fs.writeFileSync(path.join(r.ws, '.mcp.json'), '{}');
    fs.mkdirSync(path.join(r.ws, '.git', 'hooks'));
    const after = layoutFor({ policy, pathDirs: [] });
    expect(after.sweep).not.toContain('.mcp.json');
    expect(after.readOnly).toEqual(expect.arrayContaining([path.join(r.ws, '.mcp.json'), path.join(r.ws, '.git', 'hooks')]));
  });
});
