import { existsSync, realpathSync, statSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pc from 'picocolors';
import { entryShape, type HostInit } from '../init-targets.js';
import { untrustedKeys, withHookTrust } from './config-toml.js';
import { CODEX_TIMEOUT_S, codexHost } from './index.js';
import { hookwiseTrust } from './trust.js';

/** Codex reads hooks only from the user's folder (`$CODEX_HOME`), for every project. */
export const codexInit: HostInit = {
  kind: 'hooks-files',
  targets: (_projectDir, env) => {
    const shape = entryShape(codexHost, CODEX_TIMEOUT_S);
    const file = path.join(codexHome(env), 'hooks.json');
    return [
      {
        agent: 'codex',
        file,
        scope: 'user',
        shape,
        note: 'Codex runs these in every folder, trusted or not, once the hooks themselves are trusted',
        finish: (say) => trustHookwiseHooks(env, file, shape.runsHookwise, say),
        problem: () => untrustedHooks(env, file, shape.runsHookwise),
      },
    ];
  },
};

const codexHome = (env: NodeJS.ProcessEnv): string => env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex');

/** The trust Codex needs for hookwise's entries of that hooks.json, and its config.toml. */
async function wantedTrust(env: NodeJS.ProcessEnv, hooksFile: string, runsHookwise: RegExp) {
  const config = path.join(path.dirname(hooksFile), 'config.toml');
  // Codex names the file in its key from $CODEX_HOME resolved (symlinks followed) when it is set.
  const keyFile = env.CODEX_HOME ? path.join(realpathSync(env.CODEX_HOME), 'hooks.json') : hooksFile;
  const trust = hookwiseTrust(keyFile, JSON.parse(await readFile(hooksFile, 'utf8')), runsHookwise);
  const current = await readFile(config, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return { config, trust, current };
}

/** hookwise's entries Codex would skip, untrusted (a hooks.json edited since init, or trust never recorded). */
async function untrustedHooks(env: NodeJS.ProcessEnv, hooksFile: string, runsHookwise: RegExp): Promise<string | undefined> {
  if (!existsSync(hooksFile)) return undefined;
  let wanted: Awaited<ReturnType<typeof wantedTrust>>;
  try {
    wanted = await wantedTrust(env, hooksFile, runsHookwise);
  } catch (error) {
    return `${hooksFile}: cannot read it (${(error as Error).message}), so Codex's trust of hookwise's hooks is unknown`;
  }
  if (wanted.trust.length === 0) return undefined;
  const untrusted = untrustedKeys(wanted.current, wanted.trust);
  const fix = 'run `hookwise init codex` again, or trust them in codex (/hooks)';
  if (!Array.isArray(untrusted)) return `Codex's trust of hookwise's hooks is unknown: ${wanted.config} ${untrusted.unsupported}; ${fix}`;
  if (untrusted.length === 0) return undefined;
  const events = untrusted.map((key) => key.split(':').at(-3)).join(', ');
  return `Codex skips hookwise's hooks on ${events}: ${wanted.config} does not trust them as ${hooksFile} holds them; ${fix}`;
}

/**
 * Codex skips a hook nobody trusted, headless without a word: init records the trust of
 * hookwise's own entries in `$CODEX_HOME/config.toml` (./trust.ts), as trusting them in
 * Codex's `/hooks` would. The person ran init to have them run; any other hook stays as it was.
 */
async function trustHookwiseHooks(env: NodeJS.ProcessEnv, hooksFile: string, runsHookwise: RegExp, say: (line: string) => void) {
  const { config, trust, current } = await wantedTrust(env, hooksFile, runsHookwise);
  const edit = withHookTrust(current, trust);
  if ('unsupported' in edit) {
    say(
      `${pc.yellow('note')}     Codex runs a hook only once it is trusted, and ${config} ${edit.unsupported}, so hookwise left it as it is: trust hookwise's hooks in codex (/hooks), else \`codex exec\` skips them`,
    );
    return;
  }
  if (!edit.changed) return say(`${pc.dim('kept')}     ${config} (Codex trusts hookwise's hooks)`);
  const temp = `${config}.${process.pid}.tmp`;
  await writeFile(temp, edit.text, { mode: current === '' ? 0o600 : statSync(config).mode & 0o777 });
  await rename(temp, config);
  say(
    `${pc.green((current === '' ? 'wrote' : 'updated').padEnd(8))} ${config}: Codex trusts hookwise's hooks (hooks.state, as trusting them in its /hooks records)`,
  );
}
