import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { specsFromHooksBlock } from './claude/specs.js';
import { ConfigError } from './errors.js';
import { parseJson } from './parse-json.js';
import { mcpServersFor, type ClaudeSourceOptions } from './settings.js';
import type { ConfigSource } from './source.js';

/** The plugin's root: the folder holding `hooks/hooks.json` (else the file's own folder). */
export function pluginRootOf(file: string): string {
  const dir = path.dirname(path.resolve(file));
  return path.basename(dir) === 'hooks' ? path.dirname(dir) : dir;
}

function pluginName(root: string): string {
  const manifest = path.join(root, '.claude-plugin', 'plugin.json');
  if (existsSync(manifest)) {
    try {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
      if (typeof name === 'string' && name) return name;
    } catch {
      // A broken manifest is the plugin's problem; the folder name still identifies it.
    }
  }
  return path.basename(root);
}

/** A plugin's `hooks/hooks.json`: `{ "hooks": { Event: [...] } }` or the flat `{ Event: [...] }`. */
export async function loadPluginHooks(file: string, options: ClaudeSourceOptions = {}): Promise<ConfigSource> {
  return pluginHooksFromJson(file, parseJson(file, await readFile(file, 'utf8')), options);
}

export function pluginHooksFromJson(file: string, json: unknown, options: ClaudeSourceOptions = {}): ConfigSource {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(file, 'expected a JSON object');
  const obj = json as Record<string, unknown>;
  const nested = 'hooks' in obj;
  // The flat form may carry a description beside the events.
  const { description: _description, ...flat } = obj;
  const root = pluginRootOf(file);
  const httpPolicy = {};
  const projectDir = options.cwd ?? process.cwd();
  const built = specsFromHooksBlock(nested ? obj.hooks : flat, nested ? 'hooks' : '', {
    file,
    namePrefix: `plugin:${pluginName(root)}`,
    projectDir,
    pluginRoot: root,
    httpPolicy,
    mcpServers: mcpServersFor(undefined, projectDir),
  });
  return {
    file,
    kind: 'plugin',
    hooks: built.hooks,
    warnings: built.warnings,
    ...(built.skipped.length && { skipped: built.skipped }),
    httpPolicy,
  };
}
