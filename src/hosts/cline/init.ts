import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { type HostInit, WiringRefused } from '../init-targets.js';
import { CLINE_HOOK_EVENTS, CLINE_HOOK_FOLDER, clineHookScript, isHookFileFor, isHookwiseScript } from './hook-files.js';

/**
 * `hookwise init cline`: one executable per event in the workspace's `.clinerules/hooks/`
 * (`.cline/hooks/` when `.clinerules` is the older single rules file), each running
 * `hookwise cline` (src/hosts/cline/hook-files.ts). A file already there that hookwise did
 * not write is never overwritten: init stops and names it. Another PreToolUse hook in the
 * workspace stops init too: Cline runs every PreToolUse hook on the same input and keeps
 * the last `overrideInput`, so a rewrite of that hook would run unjudged.
 */
export const clineInit: HostInit = { kind: 'files', write: wireCline };

async function wireCline(dir: string, print: boolean, say: (line: string) => void): Promise<void> {
  const folder = path.join(dir, isFile(path.join(dir, '.clinerules')) ? '.cline' : '.clinerules', 'hooks');
  const shown = (file: string) => path.relative(dir, file);
  if (print) {
    for (const event of CLINE_HOOK_EVENTS) say(`--- ${shown(path.join(folder, event))} (executable)\n${clineHookScript(event)}`);
    return;
  }
  const conflicts = [...foreignAtTargets(folder), ...foreignPreToolUse(dir)].map(shown);
  if (conflicts.length > 0)
    throw new WiringRefused(
      `init cline: ${[...new Set(conflicts)].join(', ')} ${conflicts.length > 1 ? 'are' : 'is'} not hookwise's. Cline runs every hook file of an event on the same input (the last overrideInput wins), so hookwise would not judge what that hook rewrites: move its logic into hookwise.config.* (or the file aside) and run init again`,
    );
  const written: string[] = [];
  for (const event of CLINE_HOOK_EVENTS) {
    const file = path.join(folder, event);
    const script = clineHookScript(event);
    if (existsSync(file) && readFileSync(file, 'utf8') === script) continue;
    await mkdir(folder, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, script, { mode: 0o755 });
    await chmod(temp, 0o755);
    await rename(temp, file);
    written.push(event);
  }
  if (written.length === 0) return say(`${pc.dim('kept')}     ${shown(folder)}/ (hookwise already answers every event)`);
  say(`${pc.green('wrote')}    ${shown(folder)}/: hookwise on ${written.join(', ')}`);
  say(
    `${pc.yellow('note')}     Cline runs these in every session in this folder, headless too; it waits only for PreToolUse and PostToolUse`,
  );
}

function foreignAtTargets(folder: string): string[] {
  return CLINE_HOOK_EVENTS.map((e) => path.join(folder, e)).filter((f) => existsSync(f) && !isHookwiseScript(readFileSync(f, 'utf8')));
}

/** PreToolUse hooks of the workspace that hookwise did not write, in either folder Cline reads. */
function foreignPreToolUse(dir: string): string[] {
  const found: string[] = [];
  for (const folder of [path.join(dir, CLINE_HOOK_FOLDER), path.join(dir, '.cline', 'hooks')]) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(folder, name);
      if (isHookFileFor('PreToolUse', name) && isFile(file) && !isHookwiseScript(readFileSync(file, 'utf8'))) found.push(file);
    }
  }
  return found;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
