import { block, context, defineConfig, systemMessage, type HookInput } from 'hookwise';
import { budgetGuard, pathGuard, secretGuard, shellGuard } from 'hookwise/guards';

// The demo's typed policy. The guards' workspace is the folder the agent works in
// (the current folder when this file is loaded).
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ranTests = (input: HookInput<'PostToolUse'>) => /tests\//.test(String(input.tool_input?.command ?? ''));

export default defineConfig({
  hooks: [
    shellGuard(),
    pathGuard(),
    secretGuard({ mode: 'block' }),
    budgetGuard({ maxTokens: 200_000, maxToolCalls: 60 }),
    {
      // Stands for a remote policy service: slow enough to show the spinner.
      name: 'policy-service',
      events: 'PreToolUse',
      matcher: 'Write|Edit',
      timeoutMs: 5_000,
      handler: async () => {
        await sleep(300);
      },
    },
    {
      name: 'remember-test-runs',
      events: 'PostToolUse',
      matcher: { tool: 'Bash' },
      handler: (input, ctx) => {
        if (ranTests(input)) ctx.state.set('tests-ran', true);
      },
    },
    {
      name: 'tests-before-done',
      events: 'Stop',
      handler: (_input, ctx) =>
        ctx.state.get('tests-ran') ? undefined : block('Run the tests (node tests/app.test.js) before you finish.'),
    },
    {
      name: 'announce-compaction',
      events: 'PreCompact',
      handler: (input) => systemMessage(`compacting ${String(input.message_count)} messages into a summary`),
    },
    {
      name: 'brief-subagents',
      events: 'SubagentStart',
      handler: (input) => context(`You are a ${String(input.agent_type)} subagent: stay inside the workspace.`),
    },
  ],
});
