import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stampOf } from '../../config/file-stamp.js';

/**
 * What the mod's resident knows before it has loaded the policy: the events no hook of
 * it listens to, as the last resident that loaded the same files found them
 * (docs/claude-code.md#the-mod). A resident writes it once the policy is loaded; the next
 * session's resident reads it as it starts, and hands it to the mod with its socket, so
 * that the session's first events that nobody listens to (SessionStart,
 * UserPromptSubmit) do not wait for the policy to load. It holds the stamp of every file
 * the policy was loaded from (the config, what it imports, the install): one changed,
 * appeared or gone, and it is not believed, and the mod waits as before.
 *
 * It is in the project's `.hookwise/cache/`, which the path guard refuses to write and
 * the sandbox shows read-only: the agent can no more edit it than the config itself.
 */
const FILE = path.join('.hookwise', 'cache', 'mod-hearing.json');

interface Hearing {
  /** The config files asked for, as the resident found them. */
  config: string[];
  /**
   * Every file the policy was loaded from: its stamp (track.ts), and its size and whole
   * milliseconds of mtime, or none when missing (what the mod can check with `$.fs.stat`).
   */
  files: Array<[string, string, number?, number?]>;
  unheard: string[];
}

export function writeHearing(projectDir: string, config: string[], files: Array<[string, string]>, unheard: string[]): void {
  const file = path.join(projectDir, FILE);
  const described = files.map(([name, stamp]): Hearing['files'][number] => {
    const stat = fs.statSync(name, { throwIfNoEntry: false });
    return stat === undefined ? [name, stamp] : [name, stamp, stat.size, Math.floor(stat.mtimeMs)];
  });
  const text = JSON.stringify({ config, files: described, unheard } satisfies Hearing);
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // Not there yet: written below.
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // Only a faster start is lost.
  }
}

/** The events nobody listens to, when every file the policy was loaded from is as it was; else undefined. */
export function readHearing(projectDir: string, config: string[]): string[] | undefined {
  let hearing: Hearing;
  try {
    hearing = JSON.parse(fs.readFileSync(path.join(projectDir, FILE), 'utf8')) as Hearing;
  } catch {
    return undefined;
  }
  if (!Array.isArray(hearing?.config) || !Array.isArray(hearing.files) || !Array.isArray(hearing.unheard)) return undefined;
  if (JSON.stringify(hearing.config) !== JSON.stringify(config)) return undefined;
  for (const entry of hearing.files) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || stampOf(entry[0]) !== entry[1]) return undefined;
  }
  return hearing.unheard.every((e) => typeof e === 'string') ? hearing.unheard : undefined;
}
