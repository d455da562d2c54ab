import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { type HostInit, WiringRefused } from '../init-targets.js';
import { openCodePlugin, PLUGIN_MARK } from './plugin.js';

/**
 * `hookwise init opencode`: hookwise's plugin as `.opencode/plugins/hookwise.js`, the
 * folder OpenCode loads every project plugin from. Only that one file is written, and
 * only over a file hookwise wrote (its first line says so): the user's other plugins,
 * and a hookwise.js of their own, are never touched.
 */
export const openCodeInit: HostInit = { kind: 'files', write: wireOpenCode };

async function wireOpenCode(dir: string, print: boolean, say: (line: string) => void): Promise<void> {
  const relative = path.join('.opencode', 'plugins', 'hookwise.js');
  const file = path.join(dir, relative);
  const text = openCodePlugin();
  if (print) return say(`--- ${relative}\n${text}`);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (current !== undefined && !current.startsWith(PLUGIN_MARK))
    throw new WiringRefused(`${file}: a plugin hookwise did not write is there; move it aside (or rename it) and run init again`);
  if (current === text) return say(`${pc.dim('kept')}     ${relative} (hookwise already answers every hook)`);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
  say(
    `${pc.green((current === undefined ? 'wrote' : 'updated').padEnd(8))} ${relative}: hookwise on tool calls, prompts, session start and idle`,
  );
  say(`${pc.yellow('note')}     OpenCode loads it at start; for each hook it runs \`node <the project's hookwise> opencode\``);
  // OpenCode's own step, not hookwise's (the plugin imports nothing from npm): said, so a slow first start is not taken for a hang.
  if (!existsSync(path.join(dir, '.opencode', 'node_modules', '@opencode-ai', 'plugin')))
    say(
      `${pc.yellow('note')}     at its first start here OpenCode installs @opencode-ai/plugin from npm into .opencode/ and waits for it before its first request (a registry it cannot reach fails that install, and OpenCode goes on)`,
    );
}
