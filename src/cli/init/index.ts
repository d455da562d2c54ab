import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pc from 'picocolors';
import { findConfigModule } from '../../config/discover.js';
import { ConfigError } from '../../config/errors.js';
import { stripJsonComments } from '../../config/jsonc.js';
import { parseJson } from '../../config/parse-json.js';
import { mergeClaudeSettings } from './claude-settings.js';
import { bridgeProblem } from '../../sandbox/proxy/bridge.js';
import { starterConfig } from './starter-config.js';
import { keepStateInUserFolder, STATE_LOCATIONS } from './state.js';
import { STARTER_TESTS, STARTER_TESTS_FILE } from './starter-tests.js';
import { UserError } from '../errors.js';
import { INSTALL_POINTER } from '../../hosts/entry-command.js';
import type { HostInit, InitTarget } from '../../hosts/init-targets.js';
import { AGENT_NAMES, isAgentName } from '../../hosts/registry.js';

export interface InitOptions {
  host: string | undefined;
  dir: string | undefined;
  serve: boolean;
  print: boolean;
  /** claude-code: Claude Code's in-process mod instead of settings hooks (./claude-mod.ts). */
  mod?: boolean;
  /** Where the audit trail, approvals and key go (./state.ts): `.hookwise/` in the project (default) or the user's state folder. */
  state?: string;
}

export async function initProject(options: InitOptions): Promise<void> {
  // Every agent of the table of agents (src/hosts/registry.ts); each one's folder says how it is wired.
  if (options.host !== undefined && !isAgentName(options.host)) {
    throw new UserError(`init: unknown host "${options.host}"; init knows ${AGENT_NAMES.join(', ')} (or none, for a plain project)`);
  }
  if (options.serve && options.host !== 'claude-code') throw new UserError('init: --serve goes with "init claude-code"');
  if (options.mod && (options.host !== 'claude-code' || options.serve))
    throw new UserError('init: --mod goes with "init claude-code" (and not with --serve)');
  const state = options.state ?? 'project';
  if (!(STATE_LOCATIONS as readonly string[]).includes(state))
    throw new UserError(`init: --state must be ${STATE_LOCATIONS.join(' or ')}, got ${JSON.stringify(state)}`);
  const dir = path.resolve(options.dir ?? process.cwd());
  const say = (line: string) => process.stdout.write(`${line}\n`);

  const existing = findConfigModule(dir);
  // Registries and git remotes for reads where the proxy's bridge can run here; else no network, and why.
  const bridge = bridgeProblem(process.platform);
  const network = bridge === undefined ? 'registries' : 'off';
  const config = starterConfig(network);
  if (existing) say(`${pc.dim('kept')}     ${path.relative(dir, existing) || existing} (already there)`);
  else if (options.print) say(`--- hookwise.config.ts\n${config}`);
  else {
    await writeAtomically(path.join(dir, 'hookwise.config.ts'), config);
    say(`${pc.green('wrote')}    hookwise.config.ts`);
    say(
      network === 'registries'
        ? `${pc.dim('network')}  sandboxed commands reach package registries and git remotes (sandbox: { network: 'registries' }); publishing is refused`
        : `${pc.dim('network')}  sandboxed commands get no network (${bridge}); sandbox: { network: 'registries' } allows registries once socat is installed`,
    );
    // The first tests go with the starter policy they test; never over a file already there.
    if (!existsSync(path.join(dir, STARTER_TESTS_FILE))) {
      await writeAtomically(path.join(dir, STARTER_TESTS_FILE), STARTER_TESTS);
      say(`${pc.green('wrote')}    ${STARTER_TESTS_FILE} (npx hookwise test runs it)`);
    }
  }

  if (!options.print) await ignoreStateFolder(dir, say);
  if (state === 'user') await keepStateInUserFolder(dir, options.print, say);
  if (options.host !== undefined) await wire(options.host, dir, options, say);
  if (!options.print) await compilePolicy(dir, say);
  if (!options.print) printNextSteps(options, installsHookwise(dir), say);
  if (!options.print && state === 'project' && !(await import('../../audit/paths.js')).usesUserState(dir))
    say(
      `${pc.yellow('note')}     the audit trail, approvals and key go to .hookwise/ in this project; \`npx hookwise init --state user\` keeps them in your state folder, outside the agent's reach (docs/security.md)`,
    );
}

/**
 * The policy loaded once now, as a hook call loads it: a TypeScript config is compiled
 * into `.hookwise/cache/` with its graph, so the agent's first hook call does not pay
 * for jiti (seconds on a loaded machine, where an agent that starts its first hooks
 * detached can end before they record: docs/agents.md). A policy that does not load is
 * said now, not at the first tool call, which would fail closed.
 */
async function compilePolicy(dir: string, say: (line: string) => void): Promise<void> {
  const { configFiles, loadFor } = await import('../hook-call/index.js');
  const files = await configFiles(undefined, dir);
  if (files.length === 0) return;
  try {
    await loadFor(files, dir);
  } catch (error) {
    say(
      `${pc.yellow('note')}     ${path.relative(dir, files[0]!) || files[0]}: ${(error as Error).message.split('\n')[0]}; every hook call fails closed until it loads (npx hookwise check says more)`,
    );
  }
}

/** The agent wired as its host's folder says (src/hosts/<agent>/, `init`). */
async function wire(agent: string, dir: string, options: InitOptions, say: (line: string) => void): Promise<void> {
  const { hostNamed } = await import('../../hosts/index.js');
  const init: HostInit = await hostNamed(agent).init();
  if (init.kind === 'claude-code') return options.mod ? wireClaudeCodeMod(dir, options, say) : wireClaudeCode(dir, options, say);
  if (!options.print) await keepInstallPointer(dir, say);
  if (init.kind === 'hooks-files') return writeHooksFiles(dir, init.targets(dir, process.env), options, say);
  const { WiringRefused } = await import('../../hosts/init-targets.js');
  try {
    await init.write(dir, options.print, say);
  } catch (error) {
    // What the user must move aside or fix, named by the host's folder: one line, not a stack.
    if (error instanceof WiringRefused) throw new UserError(error.message);
    throw error;
  }
}

async function wireClaudeCode(dir: string, options: InitOptions, say: (line: string) => void): Promise<void> {
  const file = path.join(dir, '.claude', 'settings.json');
  const current = await readSettings(file);
  let merged: ReturnType<typeof mergeClaudeSettings>;
  try {
    merged = mergeClaudeSettings(current ?? {}, options.serve ? 'serve' : 'command', installsHookwise(dir));
  } catch (error) {
    throw new UserError(`${file}: ${(error as Error).message}; fix the file, or move it aside and run init again`);
  }
  const text = `${JSON.stringify(merged.settings, null, 2)}\n`;
  if (options.print) {
    say(`--- .claude/settings.json\n${text}`);
    return;
  }
  if (merged.added.length === 0 && merged.upgraded.length === 0 && merged.guarded.length === 0 && merged.switched.length === 0) {
    say(`${pc.dim('kept')}     .claude/settings.json (hookwise already answers every event)`);
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, text);
  if (merged.added.length > 0)
    say(`${pc.green(current ? 'updated' : 'wrote')}  .claude/settings.json: hookwise on ${merged.added.join(', ')}`);
  if (merged.switched.length > 0)
    say(
      `${pc.green('updated')}  .claude/settings.json: ${options.serve ? "hookwise's command entries replaced by the http entry to `hookwise serve`" : "hookwise's http entries (hookwise serve) replaced by the command entry"} on ${merged.switched.join(', ')}`,
    );
  if (merged.upgraded.length > 0)
    say(`${pc.green('updated')}  .claude/settings.json: the installed hookwise instead of npx on ${merged.upgraded.join(', ')}`);
  if (merged.guarded.length > 0)
    say(`${pc.green('updated')}  .claude/settings.json: the call is refused when hookwise cannot be run, on ${merged.guarded.join(', ')}`);
  if (!options.serve && !installsHookwise(dir))
    say(
      `${pc.yellow('note')}     hookwise is not installed in this project, so Claude Code runs it through npx (about a second per call): \`npm install --save-dev hookwise\`, then \`npx hookwise init claude-code\` again`,
    );
}

/** Claude Code's in-process mod, and the marker that says when it did not load (./claude-mod.ts). */
async function wireClaudeCodeMod(dir: string, options: InitOptions, say: (line: string) => void): Promise<void> {
  const { MOD_DIR, modFiles, withMarker, withoutSettingsEntries, writeModFiles } = await import('./claude-mod.js');
  const mod = modFiles();
  const file = path.join(dir, '.claude', 'settings.json');
  const current = await readSettings(file);
  let marked: ReturnType<typeof withMarker>;
  let cleared: ReturnType<typeof withoutSettingsEntries>;
  try {
    // The mod answers every event: hookwise's settings entries (of `init claude-code`, or --serve) go.
    cleared = withoutSettingsEntries(current ?? {});
    marked = withMarker(cleared.settings);
  } catch (error) {
    throw new UserError(`${file}: ${(error as Error).message}; fix the file, or move it aside and run init again`);
  }
  const settingsText = `${JSON.stringify(marked.settings, null, 2)}\n`;
  if (options.print) {
    for (const [rel, text] of Object.entries(mod.files)) say(`--- ${rel}\n${text}`);
    return say(`--- .claude/settings.json\n${settingsText}`);
  }
  await keepInstallPointer(dir, say);
  await writeModFiles(dir, mod, (line) => say(`${pc.green(line.slice(0, 9))}${line.slice(9)}`));
  if (marked.added || cleared.removed.length > 0) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeAtomically(file, settingsText);
  }
  if (cleared.removed.length > 0)
    say(
      `${pc.green('updated')}  .claude/settings.json: hookwise's settings hooks removed on ${cleared.removed.join(', ')} (the mod answers every event; each is recorded once)`,
    );
  if (marked.added)
    say(
      `${pc.green(current ? 'updated' : 'wrote')}  .claude/settings.json: a UserPromptSubmit marker that refuses prompts when the mod did not load`,
    );
  say(
    `${pc.yellow('note')}     load the mod: claude --plugin-dir ${MOD_DIR} (or name its absolute path in CLAUDE_CODE_PLUGIN_DIRS, in the env block of ~/.claude/settings.json)`,
  );
}

/** Hooks files in the agent's own format (Codex, Copilot, droid, Gemini), merged (src/hosts/hooks-file.ts). */
async function writeHooksFiles(dir: string, targets: InitTarget[], options: InitOptions, say: (line: string) => void): Promise<void> {
  const { mergeHooksFile } = await import('../../hosts/hooks-file.js');
  // Every file is read and merged before any is written: one that cannot be read leaves all of them as they were.
  const planned = [];
  for (const target of targets) {
    const current = await readSettings(target.file, target.shape.jsonc === true);
    try {
      planned.push({ target, current, merged: mergeHooksFile(current ?? {}, target.shape) });
    } catch (error) {
      throw new UserError(`${target.file}: ${(error as Error).message}; fix the file, or move it aside and run init again`);
    }
  }
  for (const { target, current, merged } of planned) {
    const shown = target.scope === 'project' ? path.relative(dir, target.file) : target.file;
    const text = `${JSON.stringify(merged.file, null, 2)}\n`;
    if (options.print) {
      say(`--- ${shown}\n${text}`);
      continue;
    }
    if (merged.added.length === 0 && merged.updated.length === 0) {
      say(`${pc.dim('kept')}     ${shown} (hookwise already answers every event)`);
      await target.finish?.(say);
      continue;
    }
    await mkdir(path.dirname(target.file), { recursive: true });
    // JSON keeps no comments: the file as the user wrote it stays beside the new one.
    const commented =
      target.shape.jsonc === true && current !== undefined && stripJsonComments(await readFile(target.file, 'utf8')).comments;
    if (commented) await copyFile(target.file, `${target.file}.bak`);
    await writeAtomically(target.file, text);
    if (commented)
      say(`${pc.yellow('note')}     ${shown} had comments, which JSON written back cannot keep: the file as it was is ${shown}.bak`);
    if (merged.added.length > 0) say(`${pc.green(current ? 'updated' : 'wrote')}  ${shown}: hookwise on ${merged.added.join(', ')}`);
    if (merged.updated.length > 0)
      say(
        `${pc.green('updated')}  ${shown}: the current hookwise command (it finds each project's hookwise) on ${merged.updated.join(', ')}`,
      );
    say(`${pc.yellow('note')}     ${target.note}`);
    await target.finish?.(say);
  }
}

/**
 * Where the agents' hook commands find hookwise in a project that does not install it
 * (src/hosts/entry-command.ts): this hookwise, named in the project's machine-local
 * state. A project that installs hookwise runs its own whatever this says.
 */
async function keepInstallPointer(dir: string, say: (line: string) => void): Promise<void> {
  const file = path.join(dir, INSTALL_POINTER);
  const bin = hookwiseBin(dir);
  const current = existsSync(file) ? (await readFile(file, 'utf8')).trim() : undefined;
  if (current === bin) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, `${bin}\n`);
  if (!installsHookwise(dir))
    say(`${pc.green((current ? 'updated' : 'wrote').padEnd(8))} ${INSTALL_POINTER}: the hookwise agents run here (${bin})`);
}

/** The hookwise the agent runs: the project's own when it installs one, else this one. */
function hookwiseBin(dir: string): string {
  const installed = path.join(dir, 'node_modules', 'hookwise', 'bin', 'hookwise.js');
  if (existsSync(installed)) return installed;
  return fileURLToPath(new URL('../../../bin/hookwise.js', import.meta.url));
}

/** The project installs hookwise (npm, pnpm and yarn's node_modules linker all put it here). */
function installsHookwise(dir: string): boolean {
  return existsSync(path.join(dir, 'node_modules', 'hookwise', 'bin', 'hookwise.js'));
}

/** `jsonc`: the agent reads comments in this file (Gemini), so hookwise does too. */
async function readSettings(file: string, jsonc = false): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`${file}: cannot read it: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = parseJson(file, jsonc ? stripJsonComments(text).text : text);
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(`${error.message}; init leaves a file it cannot read untouched`);
    throw error;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(`${file}: expected a JSON object at the top level`);
  }
  return value as Record<string, unknown>;
}

/** A crash mid-write leaves the old file or the new one, never half of one. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}

/**
 * `.hookwise/` holds machine-local state (the module cache, residents' sockets, the
 * audit database by default): it goes in the project's .gitignore, added once, in a
 * git project only.
 */
async function ignoreStateFolder(dir: string, say: (line: string) => void): Promise<void> {
  if (!existsSync(path.join(dir, '.git'))) return;
  const file = path.join(dir, '.gitignore');
  const text = existsSync(file) ? await readFile(file, 'utf8') : '';
  if (/^\/?\.hookwise\/?\s*$/m.test(text)) return;
  await writeAtomically(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}.hookwise/\n`);
  say(`${pc.green('updated')}  .gitignore: .hookwise/ (machine-local state)`);
}

function printNextSteps(options: InitOptions, installed: boolean, say: (line: string) => void): void {
  say('');
  say('next:');
  if (!installed) say('  npm install --save-dev hookwise     so the config can import it (npx works too; docs/install in the README)');
  say('  npx hookwise check                  lists the hooks in run order');
  if (options.host !== undefined && options.host !== 'claude-code') {
    say(`  ${options.host.padEnd(36)}every tool call now goes through the policy (docs/agents.md)`);
  } else if (options.host !== 'claude-code') {
    say('  npx hookwise run -m openai:gpt-4o-mini "..."   an agent under this policy');
  } else if (options.mod) {
    say('  claude --plugin-dir .claude/hookwise-mod   every hook event now goes through the policy, in-process');
  } else if (options.serve) {
    say('  export HOOKWISE_TOKEN=$(openssl rand -hex 24)   the token Claude Code sends');
    say('  npx hookwise serve                  keep it running; Claude Code calls it on every hook');
  } else {
    say('  claude                              every tool call now goes through the policy');
  }
}
