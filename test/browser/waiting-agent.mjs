// An agent whose one tool call (Bash) a hook answers with ask: with an approvals store,
// the run waits until a person answers, then goes on. test/browser/approvals.test.ts
// answers it on serve's web page.
//   node waiting-agent.mjs AUDIT_DB DIR SESSION_ID COMMAND
// Prints one JSON line when the run ends: what the model was told about the call.
// It imports dist/: `npm run build` first (npm test does it).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { openApprovals } from '../../dist/approvals/index.js';
import { openAuditStore } from '../../dist/audit/index.js';
import { HookEngine, ask } from '../../dist/index.js';
import { scriptedProvider } from '../../dist/providers/scripted.js';
import { createAgent, defineTool } from '../../dist/runtime/index.js';

const [db, dir, sessionId, command] = process.argv.slice(2);
const audit = openAuditStore({ path: db });
const approvals = await openApprovals(db, { audit });

const engine = new HookEngine();
engine.register({
  name: 'publish-guard',
  events: 'PreToolUse',
  matcher: { tool: 'Bash' },
  handler: () => ask('releases and infrastructure changes need a person'),
});
const provider = scriptedProvider([{ text: 'Running it.', toolCalls: [{ name: 'Bash', input: { command } }] }, { text: 'Done.' }]);
const agent = createAgent({
  provider,
  tools: [
    defineTool({
      name: 'Bash',
      description: 'Run a shell command',
      input: z.object({ command: z.string() }),
      run: ({ command }) => {
        appendFileSync(path.join(dir, `${sessionId}.ran`), `${command}\n`);
        return `ran ${command}`;
      },
    }),
  ],
  hooks: engine,
  cwd: dir,
  sessionId,
  transcriptDir: dir,
  audit,
  approvals,
});
const result = await agent.run('do it');
const told = provider.requests[1]?.find((m) => m.role === 'tool')?.content ?? null;
await approvals.close();
await audit.close();
process.stdout.write(`${JSON.stringify({ stopReason: result.stopReason, text: result.text, told })}\n`);
