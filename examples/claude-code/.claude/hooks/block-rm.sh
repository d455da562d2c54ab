#!/bin/sh
# Deny recursive deletes (Claude Code's JSON form: exit 0, decision on stdout).
if grep -q 'rm -rf'; then
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Destructive command blocked: rm -rf"}}'
fi
exit 0
