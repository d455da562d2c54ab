import { bash } from './harness.mjs';

/**
 * The differential cases: each runs in real Claude Code and in hookwise with the same
 * .claude/settings.json and scripts. `item` names the parity item of docs/claude-code.md
 * it covers (0: common behaviour). Scripts append a line to hooks.log each time they run.
 */
const script = (name) => `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/${name}"`;
const cmd = (name, extra = {}) => ({ type: 'command', command: script(name), ...extra });
const pre = (matcher, ...hooks) => ({ PreToolUse: [{ matcher, hooks }] });
const logged = (body) => `cat > "$CLAUDE_PROJECT_DIR/.stdin.$$"\necho run >> "$CLAUDE_PROJECT_DIR/hooks.log"\n${body}\n`;
const json = (value) => `printf '%s' '${JSON.stringify(value)}'`;
const deny = (reason) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
});
/**
 * The drop-in, behind a script: both sides then run it as the command hook it is in
 * Claude Code (hookwise skips an entry that names `hookwise claude-code` itself when it
 * loads settings, docs/claude-code.md; here the point is what Claude Code makes of its answer).
 */
const dropIn = (config) => ({
  files: {
    'hookwise.config.mjs': config,
    '.claude/hooks/drop-in.sh': `exec node "$REPO/bin/hookwise.js" claude-code --config "$CLAUDE_PROJECT_DIR/hookwise.config.mjs"\n`,
  },
  hook: { type: 'command', command: script('drop-in.sh') },
});

export const cases = [
  // ---- common behaviour ----
  {
    name: 'exit 0, no output: the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged('exit 0') },
    calls: [bash(0)],
  },
  {
    name: 'exit 2: blocked, stderr to the model',
    item: 0,
    reason: 'NOPE-exit2',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged('echo NOPE-exit2 >&2; exit 2') },
    calls: [bash(0), bash(1)],
  },
  {
    name: 'exit 1: non-blocking error, the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged('echo oops >&2; exit 1') },
    calls: [bash(0)],
  },
  {
    name: 'JSON deny: blocked with its reason',
    item: 0,
    reason: 'DENY-json',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json(deny('DENY-json'))) },
    calls: [bash(0)],
  },
  {
    name: 'a deny JSON cut short (exit 0): broken JSON is plain text, the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(`printf '%s' '${JSON.stringify(deny('DENY-cut')).slice(0, 90)}'`) },
    calls: [bash(0)],
  },
  {
    name: 'a deny JSON cut short, exit 2: blocked with stderr',
    item: 0,
    reason: 'CUT-exit2',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(`printf '%s' '${JSON.stringify(deny('DENY-cut')).slice(0, 90)}'; echo CUT-exit2 >&2; exit 2`) },
    calls: [bash(0)],
  },
  {
    name: 'JSON allow: the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: {
      'h.sh': logged(
        json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fine' } }),
      ),
    },
    calls: [bash(0)],
  },
  {
    name: 'legacy decision block on PreToolUse: blocked',
    item: 0,
    reason: 'LEGACY-block',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ decision: 'block', reason: 'LEGACY-block' })) },
    calls: [bash(0)],
  },
  {
    name: 'updatedInput: the rewritten command runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: {
      'h.sh': logged(
        json({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: bash(0, 'm0-rewritten').input },
        }),
      ),
    },
    calls: [bash(0)],
  },
  {
    name: 'PreToolUse additionalContext reaches the model',
    item: 0,
    context: 'CTX-pre',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'CTX-pre' } })) },
    calls: [bash(0)],
  },
  {
    name: 'PostToolUse additionalContext reaches the model',
    item: 0,
    context: 'CTX-post',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'CTX-post' } })) },
    calls: [bash(0)],
  },
  {
    name: 'PostToolUse decision block: the reason reaches the model',
    item: 0,
    reason: 'POST-block',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ decision: 'block', reason: 'POST-block' })) },
    calls: [bash(0)],
  },
  {
    name: 'UserPromptSubmit plain stdout is context',
    item: 0,
    context: 'CTX-prompt',
    settings: { hooks: { UserPromptSubmit: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('echo CTX-prompt') },
    calls: [bash(0)],
  },
  {
    name: 'SessionStart plain stdout is context',
    item: 0,
    context: 'CTX-start',
    settings: { hooks: { SessionStart: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('echo CTX-start') },
    calls: [bash(0)],
  },
  {
    name: 'matcher Read does not select Bash',
    item: 0,
    settings: { hooks: pre('Read', cmd('h.sh')) },
    scripts: { 'h.sh': logged('echo no >&2; exit 2') },
    calls: [bash(0)],
  },
  {
    name: 'regex matcher Ba.* selects Bash',
    item: 0,
    reason: 'REGEX-block',
    settings: { hooks: pre('Ba.*', cmd('h.sh')) },
    scripts: { 'h.sh': logged('echo REGEX-block >&2; exit 2') },
    calls: [bash(0)],
  },
  {
    name: 'Stop decision block keeps the agent going once',
    item: 0,
    stopReason: 'STOP-more',
    settings: { hooks: { Stop: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': `grep -q '"stop_hook_active":true' && exit 0\n${json({ decision: 'block', reason: 'STOP-more' })}\n` },
    calls: [bash(0)],
  },
  {
    name: 'invalid JSON on stdout is plain text: no opinion',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(`printf '%s' '{"decision": "block", oops'`) },
    calls: [bash(0)],
  },
  {
    name: 'unknown decision value: non-blocking error, the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ decision: 'maybe' })) },
    calls: [bash(0)],
  },
  {
    name: 'permissionDecision "Deny" (wrong case): non-blocking error, the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'Deny' } })) },
    calls: [bash(0)],
  },
  {
    name: 'permissionDecision at the top level: ignored, the tool runs',
    item: 0,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ permissionDecision: 'deny', permissionDecisionReason: 'no' })) },
    calls: [bash(0)],
  },
  {
    name: 'HTTP hook deny',
    item: 0,
    reason: 'HTTP-deny',
    settings: { hooks: pre('Bash', { type: 'http', url: '$MOCK/hook/deny' }) },
    calls: [bash(0)],
  },

  // ---- 1: concurrency on the original input ----
  {
    name: "a second hook sees the original input, not the first hook's rewrite",
    item: 1,
    settings: { hooks: pre('Bash', cmd('rewrite.sh'), cmd('check.sh')) },
    scripts: {
      'rewrite.sh': logged(
        json({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: bash(0, 'm0-rewritten').input },
        }),
      ),
      'check.sh': `if grep -q rewritten; then echo SAW-REWRITE >&2; exit 2; fi\nexit 0\n`,
    },
    calls: [bash(0)],
  },
  {
    name: 'two rewrites: the later one in configuration order wins (it also finishes last)',
    item: 1,
    settings: { hooks: pre('Bash', cmd('a.sh'), cmd('b.sh')) },
    scripts: {
      'a.sh': logged(
        json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: bash(0, 'm0-a').input } }),
      ),
      'b.sh': logged(
        `sleep 1\n${json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: bash(0, 'm0-b').input } })}`,
      ),
    },
    calls: [bash(0)],
  },
  {
    name: 'deny and allow together: deny wins',
    item: 1,
    reason: 'DENY-one',
    settings: { hooks: pre('Bash', cmd('allow.sh'), cmd('deny.sh')) },
    scripts: {
      'allow.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })),
      'deny.sh': logged(json(deny('DENY-one'))),
    },
    calls: [bash(0)],
  },

  // ---- 2: dedup per fire by command, not matcher ----
  {
    name: 'the same command under two matchers runs once',
    item: 2,
    settings: {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [cmd('h.sh')] },
          { matcher: 'Ba.*', hooks: [cmd('h.sh')] },
        ],
      },
    },
    scripts: { 'h.sh': logged('exit 0') },
    calls: [bash(0)],
  },
  {
    name: 'three identical entries in one settings group run once',
    item: 2,
    settings: { hooks: pre('Bash', cmd('h.sh'), cmd('h.sh'), cmd('h.sh')) },
    scripts: { 'h.sh': logged('exit 0') },
    calls: [bash(0)],
  },
  {
    name: 'three identical groups run once',
    item: 2,
    settings: { hooks: { PreToolUse: [1, 2, 3].map(() => ({ matcher: 'Bash', hooks: [cmd('h.sh')] })) } },
    scripts: { 'h.sh': logged('exit 0') },
    calls: [bash(0)],
  },
  {
    name: 'the same command with different `if` rules runs twice',
    item: 2,
    settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh', { if: 'Bash(echo *)' }), cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('exit 0') },
    calls: [bash(0)],
  },

  // ---- 3: continue:false on PreToolUse ----
  {
    name: 'continue:false on PreToolUse: the tool runs, then the turn ends',
    item: 3,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ continue: false, stopReason: 'STOP-now' })) },
    calls: [bash(0), bash(1)],
  },
  {
    name: 'continue:false with a deny on PreToolUse: refused; the turn goes on',
    item: 3,
    reason: 'DENY-stop',
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: { 'h.sh': logged(json({ continue: false, stopReason: 'STOP-deny', ...deny('DENY-stop') })) },
    calls: [bash(0), bash(1)],
  },
  {
    name: 'continue:false on PostToolUse: the turn ends',
    item: 3,
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ continue: false, stopReason: 'STOP-post' })) },
    calls: [bash(0), bash(1)],
  },
  (() => {
    const d = dropIn(
      `import { stop } from '$REPO/dist/index.js';\nexport default { hooks: [{ name: 'halt', events: 'PreToolUse', handler: () => stop('halt') }] };\n`,
    );
    return {
      name: 'drop-in: a stop() on PreToolUse runs the tool, then ends the turn',
      item: 3,
      files: d.files,
      settings: { hooks: pre('Bash', d.hook) },
      calls: [bash(0), bash(1)],
    };
  })(),

  // ---- 4: hookSpecificOutput without or with another hookEventName ----
  {
    name: 'hookSpecificOutput without hookEventName: the whole output is ignored',
    item: 4,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: {
      'h.sh': logged(json({ systemMessage: 'x', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'NO-name' } })),
    },
    calls: [bash(0)],
  },
  {
    name: 'hookSpecificOutput naming another event: ignored',
    item: 4,
    settings: { hooks: pre('Bash', cmd('h.sh')) },
    scripts: {
      'h.sh': logged(
        json({ decision: 'block', reason: 'OTHER-event', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'x' } }),
      ),
    },
    calls: [bash(0)],
  },

  // ---- 5: per-event blocking errors ----
  {
    name: 'SessionStart exit 2 does not block the session; stderr is not sent to the model',
    item: 5,
    reason: 'START-exit2',
    settings: { hooks: { SessionStart: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('echo START-exit2 >&2; exit 2') },
    calls: [bash(0)],
  },
  {
    name: 'SessionStart decision block does not block',
    item: 5,
    settings: { hooks: { SessionStart: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ decision: 'block', reason: 'START-block' })) },
    calls: [bash(0)],
  },
  {
    name: 'UserPromptSubmit exit 2 blocks the prompt',
    item: 5,
    settings: { hooks: { UserPromptSubmit: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('echo PROMPT-exit2 >&2; exit 2') },
    calls: [bash(0)],
  },
  {
    name: 'PostToolUse exit 2: stderr reaches the model',
    item: 5,
    reason: 'POST-exit2',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged('echo POST-exit2 >&2; exit 2') },
    calls: [bash(0)],
  },

  // ---- 6: missing Stop script ----
  {
    name: 'Stop exit 2 with "can\'t open"/"No such file": a missing script, non-blocking',
    item: 6,
    stopReason: 'nonexistent',
    settings: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh /nonexistent/stop-hook.sh' }] }] } },
    calls: [bash(0)],
  },
  {
    name: 'Stop exit 2 with another stderr: blocks once',
    item: 6,
    stopReason: 'STOP-exit2',
    settings: { hooks: { Stop: [{ hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': `grep -q '"stop_hook_active":true' && exit 0\necho STOP-exit2 >&2\nexit 2\n` },
    calls: [bash(0)],
  },

  // ---- 7: output rewrites ----
  {
    name: "updatedToolOutput in the shape of Bash's output replaces it",
    item: 7,
    replaced: 'REPLACED-out',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: {
      'h.sh': logged(
        json({
          hookSpecificOutput: {
            hookEventName: 'PostToolUse',
            updatedToolOutput: { stdout: 'REPLACED-out', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
          },
        }),
      ),
    },
    calls: [bash(0)],
  },
  {
    name: "updatedToolOutput that does not fit Bash's output (a string): the original output stays",
    item: 7,
    replaced: 'REPLACED-str',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'REPLACED-str' } })) },
    calls: [bash(0)],
  },
  {
    name: 'updatedMCPToolOutput does not replace a Bash output',
    item: 7,
    replaced: 'MCP-only',
    settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [cmd('h.sh')] }] } },
    scripts: { 'h.sh': logged(json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'MCP-only' } })) },
    calls: [bash(0)],
  },
  (() => {
    const d = dropIn(
      `import { replaceOutput } from '$REPO/dist/index.js';\nexport default { hooks: [{ name: 'redact', events: 'PostToolUse', handler: (i) => replaceOutput({ ...i.tool_response, stdout: 'REDACTED-dropin' }) }] };\n`,
    );
    return {
      name: 'drop-in: replaceOutput() of a Bash output (in its shape) reaches the model',
      item: 7,
      replaced: 'REDACTED-dropin',
      files: d.files,
      settings: { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [d.hook] }] } },
      calls: [bash(0)],
    };
  })(),
  (() => {
    const d = dropIn(
      `import { context } from '$REPO/dist/index.js';\nexport default { hooks: [{ name: 'more', events: 'Stop', handler: (i) => (i.stop_hook_active ? undefined : { decision: 'block', reason: 'DROPIN-stop' }) }] };\n`,
    );
    return {
      name: 'drop-in: a Stop block keeps the agent going',
      item: 7,
      stopReason: 'DROPIN-stop',
      files: d.files,
      settings: { hooks: { Stop: [{ hooks: [d.hook] }] } },
      calls: [bash(0)],
    };
  })(),

  // ---- 8: settings features ----
  {
    name: 'shell: "bash" runs the line with /bin/sh, as Claude Code 2.1.197 does on Linux',
    item: 8,
    reason: 'BASH-block',
    settings: {
      hooks: pre('Bash', { type: 'command', shell: 'bash', command: '[[ 1 == 1 ]] && { echo BASH-block >&2; exit 2; }; exit 0' }),
    },
    calls: [bash(0)],
  },
  {
    name: 'no shell field: /bin/sh runs the line',
    item: 8,
    reason: 'DEFAULT-bash',
    settings: {
      hooks: pre('Bash', { type: 'command', command: 'if [[ -n "$BASH_VERSION" ]]; then echo DEFAULT-bash >&2; exit 2; fi; exit 0' }),
    },
    calls: [bash(0)],
  },
  {
    name: 'allowedHttpHookUrls: an HTTP hook outside the list does not run (non-blocking)',
    item: 8,
    settings: { allowedHttpHookUrls: ['https://hooks.example.com/*'], hooks: pre('Bash', { type: 'http', url: '$MOCK/hook/deny' }) },
    calls: [bash(0)],
  },
  {
    name: 'allowedHttpHookUrls: an HTTP hook inside the list runs',
    item: 8,
    reason: 'HTTP-deny',
    settings: { allowedHttpHookUrls: ['$MOCK/*'], hooks: pre('Bash', { type: 'http', url: '$MOCK/hook/deny' }) },
    calls: [bash(0)],
  },
  {
    name: 'prompt hook not met on PreToolUse: the tool is refused, the turn goes on',
    item: 8,
    reason: 'PROMPT-no',
    settings: {
      hooks: pre('Bash', {
        type: 'prompt',
        prompt: 'Is this safe? VERDICT: {"ok": false, "reason": "PROMPT-no"} $ARGUMENTS',
        model: 'claude-haiku-4-5',
      }),
    },
    calls: [bash(0), bash(1)],
  },
  {
    name: 'prompt hook not met with continueOnBlock: refused, the turn goes on',
    item: 8,
    reason: 'PROMPT-no',
    settings: {
      hooks: pre('Bash', {
        type: 'prompt',
        prompt: 'Is this safe? VERDICT: {"ok": false, "reason": "PROMPT-no"} $ARGUMENTS',
        model: 'claude-haiku-4-5',
        continueOnBlock: true,
      }),
    },
    calls: [bash(0), bash(1)],
  },
  {
    name: 'prompt hook met: the tool runs',
    item: 8,
    settings: {
      hooks: pre('Bash', {
        type: 'prompt',
        prompt: 'Is this safe? VERDICT: {"ok": true, "reason": "fine"} $ARGUMENTS',
        model: 'claude-haiku-4-5',
      }),
    },
    calls: [bash(0)],
  },
  {
    name: 'Stop additionalContext reaches the model',
    item: 8,
    context: 'CTX-stop',
    settings: { hooks: { Stop: [{ hooks: [cmd('h.sh')] }] } },
    scripts: {
      'h.sh': `grep -q '"stop_hook_active":true' && exit 0\n${json({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'CTX-stop' } })}\n`,
    },
    calls: [bash(0)],
  },
];
