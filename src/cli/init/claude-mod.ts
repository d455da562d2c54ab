import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isHookwiseEntry } from '../../config/claude/hookwise-entry.js';
import { EVENTS } from '../../core/events.js';
import { MOD_LOADED_ENV, modSource } from './mod-source.js';
import { WiringRefused } from '../../hosts/errors.js';

/**
 * What `hookwise init claude-code --mod` writes (docs/claude-code.md#the-mod): the mod's
 * plugin folder, `.claude/hookwise-mod/`, loaded with `claude --plugin-dir
 * .claude/hookwise-mod` (or `CLAUDE_CODE_PLUGIN_DIRS` in the user's settings `env`), and a
 * marker in `.claude/settings.json`: a UserPromptSubmit command hook that refuses every
 * prompt when the mod did not load (it sets HOOKWISE_MOD_LOADED as the session starts),
 * so a session started without it says so and does nothing instead of running unguarded.
 * The marker is `sh`, not Node, and runs once per prompt, not per tool call.
 */
export const MOD_DIR = path.join('.claude', 'hookwise-mod');

export const MOD_MARKER = `[ -n "$${MOD_LOADED_ENV}" ] || { echo 'hookwise: the Claude Code mod did not load, so nothing in this project is checked: start claude with --plugin-dir ${MOD_DIR} (docs/claude-code.md#the-mod)' >&2; exit 2; }`;

export interface ModFiles {
  /** Path (relative to the project) → text. */
  files: Record<string, string>;
}

export function modFiles(): ModFiles {
  const plugin = { name: 'hookwise', version: '0.1.0', description: 'hookwise: every hook event through the project policy' };
  return {
    files: {
      [path.join(MOD_DIR, '.claude-plugin', 'plugin.json')]: `${JSON.stringify(plugin, null, 2)}\n`,
      [path.join(MOD_DIR, 'hooks', 'hooks.json')]: `${JSON.stringify({ modules: ['./register.js'] }, null, 2)}\n`,
      [path.join(MOD_DIR, 'hooks', 'register.js')]: modSource({ events: EVENTS }),
    },
  };
}

/** settings.json with the marker added (once); everything else kept as it was. */
export function withMarker(settings: Record<string, unknown>): { settings: Record<string, unknown>; added: boolean } {
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) throw new WiringRefused('"hooks": expected an object of events');
  const groups = hooks.UserPromptSubmit ?? [];
  if (!Array.isArray(groups)) throw new WiringRefused('"hooks.UserPromptSubmit": expected an array of matcher groups');
  const has = groups.some((g) =>
    (g as { hooks?: { command?: unknown }[] })?.hooks?.some((h) => String(h?.command).includes(MOD_LOADED_ENV)),
  );
  if (has) return { settings, added: false };
  const marker = { hooks: [{ type: 'command', command: MOD_MARKER, timeout: 10 }] };
  return { settings: { ...settings, hooks: { ...hooks, UserPromptSubmit: [...groups, marker] } }, added: true };
}

/**
 * settings.json without hookwise's own entries (the `hookwise claude-code` command, the
 * http entry to `hookwise serve`): with the mod loaded they would answer every event a
 * second time, and record it twice. Other hooks are kept as they are; a group left empty,
 * and an event left with no group, go. `removed` names the events that lost an entry.
 */
export function withoutSettingsEntries(settings: Record<string, unknown>): { settings: Record<string, unknown>; removed: string[] } {
  const hooks = settings.hooks;
  if (hooks === undefined) return { settings, removed: [] };
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw new WiringRefused('"hooks": expected an object of events');
  const removed: string[] = [];
  const kept: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    let lost = false;
    const next = groups.flatMap((group) => {
      const entries = (group as { hooks?: unknown })?.hooks;
      if (!Array.isArray(entries) || !entries.some(isHookwiseEntry)) return [group];
      lost = true;
      const others = entries.filter((h) => !isHookwiseEntry(h));
      return others.length > 0 ? [{ ...(group as object), hooks: others }] : [];
    });
    if (lost) removed.push(event);
    if (next.length > 0) kept[event] = next;
  }
  if (removed.length === 0) return { settings, removed };
  return { settings: { ...settings, hooks: kept }, removed };
}

/** Writes the mod's files; says which it wrote. */
export async function writeModFiles(dir: string, mod: ModFiles, say: (line: string) => void): Promise<void> {
  for (const [rel, text] of Object.entries(mod.files)) {
    const file = path.join(dir, rel);
    const before = existsSync(file) ? await readFile(file, 'utf8') : undefined;
    if (before === text) continue;
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, text);
    await rename(temp, file);
    say(`${before === undefined ? 'wrote' : 'updated'}    ${rel}`);
  }
}
