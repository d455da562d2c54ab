import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real workspace in a temp folder, with real symlinks, a sibling, an outside folder and a home. */
export interface Fixture {
  root: string;
  ws: string;
  outside: string;
  home: string;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-guards-')));
  const ws = path.join(root, 'proj');
  const outside = path.join(root, 'outside');
  const home = path.join(root, 'home');
  for (const dir of [
    ws,
    outside,
    path.join(outside, 'sub'),
    path.join(outside, 'data'),
    path.join(root, 'proj-evil'),
    path.join(home, '.ssh'),
    path.join(home, '.aws'),
    path.join(ws, '.git', 'hooks'),
    path.join(ws, '.claude'),
    path.join(ws, 'build'),
    path.join(ws, 'src', 'old'),
    path.join(ws, 'scripts'),
  ]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'not a real key');
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[default]');
  fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]');
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};');
  fs.mkdirSync(path.join(ws, 'config'));
  // An OpenAI-shaped key, assembled so this file is not itself a secret.
  fs.writeFileSync(
    path.join(ws, 'config', 'deploy.json'),
    `{ "openai_api_key": "${['sk', 'proj', 'Fixture0nlyKey9xQ2mV7tL4pR8wZ1'].join('-')}" }\n`,
  );
  fs.writeFileSync(path.join(ws, 'package.json'), '{ "name": "fixture" }\n');
  fs.writeFileSync(path.join(outside, 'file.txt'), 'outside');
  fs.symlinkSync(outside, path.join(ws, 'link-out'));
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'link-in'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(ws, 'link-secret'));
  fs.symlinkSync(path.join(outside, 'sub'), path.join(ws, 'link-deep'));
  fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(ws, 'dangling'));
  fs.linkSync(path.join(outside, 'file.txt'), path.join(ws, 'hard.txt'));
  return { root, ws, outside, home, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export function fill(template: string, f: Fixture): string {
  return template.replaceAll('{ws}', f.ws).replaceAll('{outside}', f.outside).replaceAll('{home}', f.home);
}
