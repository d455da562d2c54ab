#!/usr/bin/env node
/**
 * Real Claude Code with hookwise's drop-in and the shell guard (sandbox on): the Bash
 * tool runs the sandboxed line hookwise answers. Part of `npm run test:claude-code`.
 * Checks, through Claude Code's own Bash tool: an allowed command runs; a `cd` persists
 * to the next call; a write outside the project that the parser cannot see is contained
 * (the sentinel beside the project is unchanged); a refused command does not run and its
 * reason reaches the model. Exit 1 on any failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runClaudeCode } from './harness.mjs';

const hex = (s) => Buffer.from(s).toString('hex');
const guard = `import { shellGuard } from ${JSON.stringify(path.resolve('dist/guards/index.js'))};\nexport default { hooks: [shellGuard()] };\n`;
const outsideWrite = `python3 -c "import os; os.system(bytes.fromhex('${hex('echo pwn > ../sentinel.txt')}').decode())"`;
const c = {
  name: 'sandboxed Bash through real Claude Code',
  reason: 'outside the workspace',
  files: { 'hookwise.config.mjs': guard, '../sentinel.txt': 'untouched\n' },
  settings: {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: 'node "$REPO/bin/hookwise.js" claude-code --config "$CLAUDE_PROJECT_DIR/hookwise.config.mjs"' },
          ],
        },
      ],
    },
  },
  calls: [
    { name: 'Bash', input: { command: 'mkdir -p sub && cd sub && d=$(dirname "$PWD") && echo m0 >> "$d/ran.log"', description: 'step 0' } },
    { name: 'Bash', input: { command: 'd=$(dirname "$PWD"); echo "m1-$(basename "$PWD")" >> "$d/ran.log"', description: 'step 1' } },
    { name: 'Bash', input: { command: `cd .. && ${outsideWrite}; echo m2 >> ran.log`, description: 'step 2' } },
    { name: 'Bash', input: { command: 'rm -rf /etc && echo m3 >> ran.log', description: 'step 3' } },
  ],
  inspect: (project) => ({
    sentinel: readFileSync(path.join(project, '..', 'sentinel.txt'), 'utf8'),
    log: existsSync(path.join(project, 'ran.log')) ? readFileSync(path.join(project, 'ran.log'), 'utf8') : '',
  }),
};

const observed = await runClaudeCode(c);
const ran = observed.calls.map((call) => call.ran);
const failures = [];
if (ran[0] !== 'm0') failures.push(`an allowed command did not run (ran: ${ran[0]})`);
if (ran[1] !== 'm1-sub') failures.push(`a cd did not persist to the next call (ran: ${ran[1]})`);
if (ran[2] !== 'm2') failures.push(`the contained command did not run (ran: ${ran[2]})`);
if (ran[3] !== null) failures.push('a refused command ran');
if (!observed.calls[3].reasonSeen) failures.push("the refusal's reason did not reach the model");
if (observed.inspected?.sentinel !== 'untouched\n')
  failures.push(`the sentinel outside the project changed: ${JSON.stringify(observed.inspected)}`);
process.stdout.write(`${failures.length === 0 ? 'same' : 'DIFF'}  sandboxed Bash through real Claude Code ${JSON.stringify(ran)}\n`);
for (const f of failures) process.stdout.write(`      ${f}\n`);
if (failures.length > 0) process.stdout.write(`      ${observed.raw.stdout.match(/tool_result[^}]*/g)?.join('\n      ')}\n`);
process.exitCode = failures.length === 0 ? 0 : 1;
