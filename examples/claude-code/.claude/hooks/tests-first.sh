#!/bin/sh
# Keep the agent going until it has run the tests once (Stop + decision "block").
if grep -q '"stop_hook_active":true'; then exit 0; fi
echo '{"decision":"block","reason":"Run the tests before stopping."}'
