// A Claude Code PreToolUse hook: refuse edits to lockfiles, say nothing otherwise.
let raw = '';
process.stdin.on('data', (d) => (raw += d));
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const file = String(input.tool_input?.file_path ?? '');
  if (/(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$/.test(file)) {
    process.stdout.write(
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: `${file} is generated: run npm install instead`,
        },
      }),
    );
  }
});
