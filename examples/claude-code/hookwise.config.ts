import { block, context, defineConfig, deny } from 'hookwise';

// The policy of .claude/settings.json, as typed in-process hooks: no shell, no
// jq, no JSON to print; hookwise.config.ts is run by `hookwise claude-code`.
export default defineConfig({
  hooks: [
    {
      name: 'block-rm',
      events: 'PreToolUse',
      matcher: 'Bash',
      handler: (input) =>
        String(input.tool_input?.command ?? '').includes('rm -rf') ? deny('Destructive command blocked: rm -rf') : undefined,
    },
    {
      name: 'protect-env',
      events: 'PreToolUse',
      matcher: { tool: ['Edit', 'Write'], path: '.env*' },
      handler: () => deny('Refusing to edit .env files'),
    },
    {
      name: 'conventions',
      events: 'UserPromptSubmit',
      handler: () => context('Conventions: use pnpm, never npm.'),
    },
    {
      name: 'tests-first',
      events: 'Stop',
      handler: (input) => (input.stop_hook_active === true ? undefined : block('Run the tests before stopping.')),
    },
  ],
});
