/** The first policy tests `hookwise init` writes beside the starter config (docs/testing.md). */
export const STARTER_TESTS_FILE = 'hookwise.policy-test.yaml';

export const STARTER_TESTS = `# Policy tests for hookwise.config.ts: \`npx hookwise test\` runs them (docs/testing.md).
# Each case fires one event with the input the host would send and says what must
# come out. \`npx hookwise test --update\` writes the policy's current answers here.
cases:
  - name: a production deploy is refused by your own hook
    event: PreToolUse
    input: { tool_name: Bash, tool_input: { command: ./scripts/deploy.sh --prod } }
    expect: { decision: deny, reason: /production/, hook: no-prod-deploy }
  - name: deleting the file system is refused by the shell guard
    event: PreToolUse
    input: { tool_name: Bash, tool_input: { command: rm -rf / } }
    expect: { decision: deny, hook: "guard:shell" }
  - name: reading a secret file is refused
    event: PreToolUse
    input: { tool_name: Read, tool_input: { file_path: .env } }
    expect: { decision: deny, hook: "guard:path" }
`;
