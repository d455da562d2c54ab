/** The `hookwise.config.ts` that `hookwise init` writes: the built-in guards and one hook of your own to edit. */
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
