import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { specsFromHooksBlock } from './claude/specs.js';
import { ConfigError } from './errors.js';
import { projectDirFor } from './project-dir.js';
import type { ClaudeSourceOptions } from './settings.js';
import type { ConfigSource } from './source.js';

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * `hooks:` in the YAML frontmatter of a skill (`SKILL.md`) or agent markdown file.
 * Entries may say `once: true` (run once per session), as in Claude Code.
 */
export async function loadFrontmatterHooks(file: string, options: ClaudeSourceOptions = {}): Promise<ConfigSource> {
  const text = await readFile(file, 'utf8');
  const source: ConfigSource = { file, kind: 'frontmatter', hooks: [], warnings: [] };
  const match = FRONTMATTER.exec(text);
  if (!match) {
    source.warnings.push(`${file}: no YAML frontmatter (--- ... ---) at the top of the file; no hooks loaded`);
    return source;
  }
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(match[1]!);
  const problem = doc.errors[0];
  if (problem) {
    const at = problem.linePos?.[0];
    // +1: the opening `---` line comes before the YAML.
    const where = at ? ` at line ${at.line + 1}, column ${at.col}` : '';
    throw new ConfigError(
      file,
      `invalid YAML frontmatter${where}: ${problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const data = doc.toJS() as unknown;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ConfigError(file, 'frontmatter: expected a YAML mapping');
  const front = data as Record<string, unknown>;
  if (front.hooks === undefined || front.hooks === null) return source;
  const abs = path.resolve(file);
  const kind = abs.split(path.sep).includes('agents') ? 'agent' : 'skill';
  const fallbackName = path.basename(abs) === 'SKILL.md' ? path.basename(path.dirname(abs)) : path.basename(abs, path.extname(abs));
  const name = typeof front.name === 'string' && front.name ? front.name : fallbackName;
  const built = specsFromHooksBlock(front.hooks, 'hooks', {
    file,
    namePrefix: `${kind}:${name}`,
    projectDir: projectDirFor(file, options.cwd ?? process.cwd()),
    skillDir: path.dirname(abs),
  });
  source.hooks = built.hooks;
  source.warnings = built.warnings;
  if (built.skipped.length) source.skipped = built.skipped;
  return source;
}
