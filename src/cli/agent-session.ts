import path from 'node:path';
import pc from 'picocolors';
import type { LoadedConfig } from '../config/load.js';
import type { ModelProvider } from '../providers/types.js';
import type { ApprovalRequest, RunResult, RuntimeEvent } from '../runtime/index.js';
import { UserError } from './errors.js';
import { loadEngine } from './load-engine.js';
import { approvalWaitText, Timeline } from './timeline.js';

/**
 * What `hookwise demo` and `hookwise run` share: load a policy, run an agent
 * under it with a live timeline and an audit trail, print the summary.
 */
export interface AgentSessionOptions {
  provider: ModelProvider;
  prompt: string;
  workspace: string;
  /** Configuration sources; none = what is found in the workspace. */
  configFiles?: string[];
  auditPath: string;
  maxSteps?: number;
  compaction?: { maxMessages?: number; maxTranscriptTokens?: number };
  /** Refuse to start when the policy has no hook (`hookwise run` without --no-policy). */
  requirePolicy?: boolean;
  /** Ask the person at the terminal when a hook says ask (TTY only). */
  interactive?: boolean;
  /** An ask becomes a durable approval in the audit database, answered from any channel (docs/approvals.md). */
  approvals?: boolean;
  /** The workspace is a scratch copy removed when the command ends (`hookwise demo`): the summary says so. */
  workspaceRemoved?: boolean;
}

export interface AgentSessionResult {
  result: RunResult;
  auditRows: number;
  auditOk: boolean;
}

function describeRuntimeEvent(event: RuntimeEvent): string | undefined {
  switch (event.type) {
    case 'text':
      return event.agentId ? `[${event.agentId}] ${event.text}` : `model: ${event.text}`;
    case 'tool_denied':
      return pc.red(`✗ ${event.tool} not run: ${oneLine(event.reason)}`);
    case 'tool_end':
      // Not the output itself: it may hold what a PostToolUse hook is about to redact.
      return `${event.ok ? pc.green('✓ ran') : pc.red('✗ failed')} ${event.tool} (${event.output.length} chars, ${event.durationMs.toFixed(0)} ms)`;
    case 'compaction':
      return pc.cyan('transcript compacted');
    case 'subagent_start':
      return pc.cyan(`subagent ${event.agentId} started`);
    case 'system_message':
      return pc.yellow(`system: ${event.text}`);
    case 'approval':
      return event.by === 'store' || event.by === 'standing' ? describeApproval(event) : undefined;
    default:
      return undefined;
  }
}

function describeApproval(event: Extract<RuntimeEvent, { type: 'approval' }>): string {
  const who = event.answeredBy ? ` by ${event.answeredBy}` : '';
  const note = event.note ? `: ${oneLine(event.note)}` : '';
  const standing = event.by === 'standing' ? ' (standing permission for this session)' : '';
  const line = `${event.tool} ${event.approved ? 'approved' : 'denied'}${who}${standing}, approval ${event.approvalId}${note}`;
  return event.approved ? pc.green(`✓ ${line}`) : pc.red(`✗ ${line}`);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export async function runAgentSession(options: AgentSessionOptions): Promise<AgentSessionResult> {
  const [{ createAgent, builtinTools }, audit] = await Promise.all([import('../runtime/index.js'), import('../audit/index.js')]);
  // The guards in a config default to the current folder as their workspace: make it the agent's.
  process.chdir(options.workspace);
  const { engine, config } = await loadEngine({ config: options.configFiles, cwd: options.workspace });
  if (config.hooks.length === 0) {
    if (options.requirePolicy) {
      throw new UserError(
        `no policy for ${options.workspace}: no hookwise.config.* or Claude Code settings with hooks were found, so nothing would guard the model's tool calls. Start one with \`npx hookwise init\`, name one with --config, or run unguarded with --no-policy`,
      );
    }
    process.stderr.write(`hookwise: warning: running with no policy: every tool call the model asks for runs\n`);
  }
  printSources(config);
  const store = audit.openAuditStore({ path: options.auditPath });
  const disposeShutdown = audit.installShutdownFlush(store);
  // The approvals live in the same database and chain their records into the same trail.
  const approvals = options.approvals
    ? await (await import('../approvals/index.js')).openApprovals(options.auditPath, { audit: store })
    : undefined;
  const timeline = new Timeline({ quiet: true });
  const agent = createAgent({
    provider: options.provider,
    tools: builtinTools(options.workspace),
    hooks: engine,
    cwd: options.workspace,
    transcriptDir: path.join(options.workspace, '.hookwise', 'transcripts'),
    audit: store,
    maxSteps: options.maxSteps,
    compaction: options.compaction,
    approve: options.interactive && process.stdin.isTTY ? askAtTerminal : undefined,
    approvals,
    onEvent: (event) => {
      if (event.type === 'approval_wait') return timeline.progress(event.approvalId, approvalWaitText(event));
      const line = describeRuntimeEvent(event);
      if (line) timeline.note(line);
    },
  });
  // Attached after the agent, whose audit listener then records each outcome before it is shown.
  timeline.attach(engine);
  let result: RunResult;
  try {
    result = await agent.run(options.prompt);
  } finally {
    timeline.detach();
    await approvals?.close();
    await store.close();
    disposeShutdown();
  }
  const verified = audit.verifyAudit(options.auditPath);
  process.stdout.write(
    `\n${timeline.renderSummary([
      ['agent stopped because', result.stopReason + (result.reason ? ` (${result.reason})` : '')],
      ['model steps', String(result.steps)],
      ['audit database', options.auditPath],
      ['audit chain', verified.ok ? `verified, ${verified.rows} rows` : `BROKEN: ${verified.problems[0]?.message ?? ''}`],
    ])}\n`,
  );
  process.stdout.write(
    `workspace: ${options.workspace}${options.workspaceRemoved ? '\n  (a scratch copy, removed as the demo ends: --keep-workspace keeps it)' : ''}\nverify the audit trail again with:\n  npx hookwise audit verify --db ${JSON.stringify(options.auditPath)}\n`,
  );
  return { result, auditRows: verified.rows, auditOk: verified.ok };
}

function printSources(config: LoadedConfig): void {
  const files = config.sources.map((s) => `  ${s.file}\n`).join('');
  process.stdout.write(`${pc.bold('policy')}: ${config.hooks.length} hooks from ${files ? `\n${files}` : '(no configuration found)\n'}\n`);
  for (const warning of config.warnings) process.stderr.write(`hookwise: warning: ${warning}\n`);
}

async function askAtTerminal(request: ApprovalRequest): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${pc.yellow('?')} allow ${request.toolName}${request.reason ? ` (${request.reason})` : ''}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
