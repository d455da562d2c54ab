import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { engineFor, loadSource } from '../../src/config/load.js';
import { bash, copyFixtures } from './helpers.js';

/** Fire PreToolUse (Bash `ls`) through one handler entry written in a settings file. */
export async function withEngine(entry: Record<string, unknown>, event = 'PreToolUse', input: Record<string, unknown> = bash('ls')) {
  const { dir, cleanup } = copyFixtures();
  try {
    const file = path.join(dir, 'project', '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ hooks: { [event]: [{ hooks: [entry] }] } }));
    const source = await loadSource(file, { cwd: path.join(dir, 'project') });
    const engine = engineFor({ sources: [source], hooks: source.hooks, warnings: [], parallel: false });
    const outcome = await engine.fire(event, input);
    await engine.drain();
    return outcome;
  } finally {
    cleanup();
  }
}
