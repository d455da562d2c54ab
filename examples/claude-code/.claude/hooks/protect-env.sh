#!/bin/sh
# Never edit .env files (Claude Code's exit-code form: exit 2, reason on stderr).
if grep -q '"file_path":"[^"]*\.env'; then
  echo 'Refusing to edit .env files' >&2
  exit 2
fi
exit 0
