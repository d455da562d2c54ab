#!/bin/sh
# A Claude Code PostToolUse hook: append every edit to a log in the project.
mkdir -p "$CLAUDE_PROJECT_DIR/.hookwise"
cat >> "$CLAUDE_PROJECT_DIR/.hookwise/edits.jsonl"
echo >> "$CLAUDE_PROJECT_DIR/.hookwise/edits.jsonl"
