import { defineConfig, deny, allow, modify, context } from 'hookwise';

// A small policy: block deletes of anything outside ./build, make every `npm test`
// run quietly, and tell the model which branch it is on.
export default defineConfig({
  hooks: [
    {
      name: 'no-rm-rf',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: String.raw`\brm\s+-\w*r` },
      priority: 100,
      handler: (input) => {
        const command = String(input.tool_input?.command ?? '');
        return command.includes('./build') ? allow('only ./build') : deny(`recursive delete refused: ${command}`);
      },
    },
    {
      name: 'quiet-tests',
      events: 'PreToolUse',
      matcher: { tool: 'Bash', command: '^npm test$' },
      handler: (input) => modify({ ...input.tool_input, command: 'npm test --silent' }),
    },
    {
      name: 'branch-context',
      events: 'SessionStart',
      handler: () => context('You are on branch main.'),
    },
  ],
});
