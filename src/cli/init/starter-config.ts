/**
 * The network the starter policy gives sandboxed commands: `registries` (package
 * registries and git remotes over HTTPS, through hookwise's proxy; publishing is
 * refused by the publishing pack) where this machine can run the proxy's bridge,
 * else `off` (docs/security.md#the-os-sandbox).
 */
export type StarterNetwork = 'registries' | 'off';

/** The `hookwise.config.ts` that `hookwise init` writes: the built-in guards and one hook of your own to edit. */
export function starterConfig(network: StarterNetwork): string {
  return STARTER_CONFIG.replace('    shellGuard(),\n', SHELL_GUARD[network]);
}

const SHELL_GUARD: Record<StarterNetwork, string> = {
  registries:
    '    // Commands run in an OS sandbox; its network reaches package registries and git remotes\n' +
    "    // (reads: publishing is refused by the publishing pack). 'off' gives them none.\n" +
    "    shellGuard({ sandbox: { network: 'registries' } }),\n",
  off:
    "    // Commands run in an OS sandbox with no network (this machine has no socat for the registries'\n" +
    "    // proxy: install it, then set sandbox: { network: 'registries' } to reach package registries).\n" +
    '    shellGuard(),\n',
};

/** The starter policy with the shell guard's defaults (`network: 'off'`). */
export const STARTER_CONFIG = `import { defineConfig, deny } from 'hookwise';
import { checkpointGuard, pathGuard, secretGuard, shellGuard } from 'hookwise/guards';

// The policy for this folder. The guards refuse what they cannot prove safe:
// destructive or escaping shell commands, reads and writes outside the project,
// secrets in tool inputs and outputs. Every step that can write starts from a
// checkpoint: \`npx hookwise undo\` puts back what a step took, \`npx hookwise timeline\`
// lists the steps. \`npx hookwise check\` lists every hook in run order;
// \`npx hookwise guard shell "<command>"\` explains a decision.
export default defineConfig({
  hooks: [
    shellGuard(),
    pathGuard(),
    secretGuard({ mode: 'block' }),
    {
      // An example of your own: edit or delete it. (Force-pushes, resets and other git
      // losses are refused by the shell guard's git pack already.)
      name: 'no-prod-deploy',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: String.raw\`deploy.*--prod\` },
      handler: () => deny('deploys to production are done by people'),
    },
    checkpointGuard(),
  ],
});
`;
