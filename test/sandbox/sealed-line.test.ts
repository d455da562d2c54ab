import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/sandbox/index.js';
import { guardEngine, hostLine, makeRange, runBash, type Range } from './harness.js';

/**
 * The sealed line (src/sandbox/sealed-line.ts): the host runs a short line that names the
 * sandbox's script in hookwise's state folder by its SHA-256, and runs it only when the
 * file it opened has that digest. Each attack below edits, swaps or removes that file; a
 * sentinel outside the workspace shows whether the command ran outside its sandbox, next
 * to a control that shows the same file, run without the check, does reach it.
 */
const canSandbox = detectSandbox().ok;

let r: Range;
beforeEach(async () => {
  r = await makeRange();
});
afterEach(async () => {
  await r.cleanup();
});

const fileOf = (line: string) => /__hw_f=(?:'([^']*)'|([^;\s]+));/.exec(line)!.slice(1).find(Boolean)!;
const escaped = () => path.join(r.outside, 'escaped.txt');

describe.runIf(canSandbox)('the sealed sandboxed line', () => {
  it('is short, names a script the agent cannot write, and runs the command in the sandbox', async () => {
    const { line } = await hostLine(guardEngine(r), r, 'echo hi > in-ws.txt; cd src; echo "$PWD"');
    expect(line!.length).toBeLessThan(1000);
    expect(line).not.toContain('bwrap');
    const file = fileOf(line!);
    expect(fs.readFileSync(file, 'utf8')).toContain('/bwrap ');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(fs.statSync(path.dirname(file)).mode & 0o077).toBe(0);
    const ran = await runBash(r, `${line}; echo "after:$PWD"`);
    expect(ran.status).toBe(0);
    expect(fs.readFileSync(path.join(r.ws, 'in-ws.txt'), 'utf8')).toBe('hi\n');
    // A `cd` persists in the host's shell, as with the long line.
    expect(ran.stdout).toContain(`after:${path.join(r.ws, 'src')}`);
  });

  it('runs nothing when its script was edited: the edit would have escaped', async () => {
    const { line } = await hostLine(guardEngine(r), r, 'touch ran.txt');
    const file = fileOf(line!);
    // The attack: the sandbox program replaced by the command run as it is.
    const tampered = fs.readFileSync(file, 'utf8').replace(/exec \S*bwrap /, `exec touch '${escaped()}'; exec /usr/bin/env true `);
    expect(tampered).not.toBe(fs.readFileSync(file, 'utf8'));
    // Control: the edited script, run without the line's check, reaches the sentinel.
    fs.writeFileSync(path.join(r.root, 'control.sh'), tampered);
    await runBash(r, `__hw_cmd=true; . '${path.join(r.root, 'control.sh')}'`);
    expect(fs.existsSync(escaped())).toBe(true);
    fs.rmSync(escaped());

    fs.writeFileSync(file, tampered);
    const ran = await runBash(r, line!);
    expect(ran.status).toBe(126);
    expect(ran.stderr).toContain(`hookwise sandbox: ${file} is not the sandbox hookwise sealed for this command`);
    expect(fs.existsSync(escaped())).toBe(false);
    expect(fs.existsSync(path.join(r.ws, 'ran.txt'))).toBe(false);
  });

  it('runs nothing when its script was swapped for another sealed one that would let it out', async () => {
    // Not provable (the path is made at run time): the guard lets it run in its sandbox.
    const command = `eval "$(printf 'touch %s' '${escaped()}')"`;
    // Another policy's sealed script, genuine, whose sandbox may write the folder outside.
    const wide = (await hostLine(guardEngine(r, { allowWrite: [r.outside] }), r, command)).line!;
    const narrow = (await hostLine(guardEngine(r), r, command)).line;
    if (narrow === undefined) throw new Error('the guard refused the command it should sandbox');
    expect(fileOf(wide)).not.toBe(fileOf(narrow));
    // Control: the wide script with this command reaches the sentinel.
    const control = await runBash(r, wide);
    expect(control.status).toBe(0);
    expect(fs.existsSync(escaped())).toBe(true);
    fs.rmSync(escaped());

    fs.copyFileSync(fileOf(wide), fileOf(narrow));
    const ran = await runBash(r, narrow);
    expect(ran.status).toBe(126);
    expect(ran.stderr).toContain('is not the sandbox hookwise sealed for this command');
    expect(fs.existsSync(escaped())).toBe(false);
  });

  it('runs nothing when its script is a link to another, or missing; hookwise writes it again on the next call', async () => {
    const { line } = await hostLine(guardEngine(r), r, 'touch ran.txt');
    const file = fileOf(line!);
    const attacker = path.join(r.root, 'attacker.sh');
    fs.writeFileSync(attacker, `touch '${escaped()}'\n`);
    fs.rmSync(file);
    fs.symlinkSync(attacker, file);
    const linked = await runBash(r, line!);
    expect(linked.status).toBe(126);
    expect(fs.existsSync(escaped())).toBe(false);

    fs.rmSync(file);
    const missing = await runBash(r, line!);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain(file);
    expect(fs.existsSync(path.join(r.ws, 'ran.txt'))).toBe(false);

    // The next call's wrap finds it gone and seals it again: the same line runs.
    const again = (await hostLine(guardEngine(r), r, 'touch ran.txt')).line!;
    expect(again).toBe(line);
    expect((await runBash(r, again)).status).toBe(0);
    expect(fs.existsSync(path.join(r.ws, 'ran.txt'))).toBe(true);
  });
});
