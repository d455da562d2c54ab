import type { Outcome } from '../core/outcome.js';
import type { AuditSink } from '../audit/types.js';
import type { HookEngine } from '../core/engine.js';
import type { ChatMessage, ModelProvider, ToolDefinition } from '../providers/types.js';
import { HookGateway } from './hook-gateway.js';
import type { Observer } from './observer.js';
import { toolDefinition, type SubagentRequest, type SubagentResult, type Tool } from './tool.js';
import type { Transcript } from './transcript.js';
import type { AgentOptions, StopReason, Usage } from './types.js';
import { RuntimeOptionError } from './errors.js';

export const HOOK_CONTEXT_HEADER = 'Context from hooks:';

/** Why a run ends early: a hook stopped or blocked it, or something failed. */
export interface Halt {
  stopReason: StopReason;
  reason: string | null;
  error?: { type: string; message: string };
}

/** A hook said stop (Claude Code's `continue: false`): the whole agent halts with its reason. */
export function stopHalt(outcome: Pick<Outcome, 'stopReason'>): Halt {
  return { stopReason: 'hook_stop', reason: outcome.stopReason };
}

/** What the main agent and its subagents share: one session, one engine, one provider. */
export interface SessionScope {
  sessionId: string;
  cwd: string;
  transcriptPath: string;
  checkpointPath: string | null;
  engine: HookEngine;
  provider: ModelProvider;
  observer: Observer;
  audit?: AuditSink;
  signal: AbortSignal;
  options: AgentOptions;
  maxSteps: number;
  maxOperationRetries: number;
  /** Tokens used by the whole session, subagents included. */
  usage: Usage;
  /** Numbers subagents: agent-1, agent-2, ... */
  subagents: number;
  /** Set when a hook inside a subagent said stop: the whole agent halts. */
  halt: Halt | null;
  /** Set by UserPromptSubmit: correlates a prompt with every later event (Claude Code's `prompt_id`). */
  promptId: string | null;
  permissionMode: string;
  effort?: string;
  /** The agent's metadata as hooks see it; a StepStart hook may replace it. */
  metadata?: Readonly<Record<string, unknown>>;
  /** `ctx.env` of hooks: the process environment with the agent's `env` on top. */
  env: Readonly<Record<string, string | undefined>>;
  projectDir: string;
  /** `performance.now()` when the session started (SessionEnd's `duration_ms`). */
  startedAt: number;
  /** Tool calls executed in the session, subagents included. */
  toolCalls: number;
  /** Runs a child agent (installed by the agent, so tools reach it without an import cycle). */
  spawnSubagent(parent: RunContext, request: SubagentRequest): Promise<SubagentResult>;
}

export interface AgentIdentity {
  agentId?: string;
  agentType?: string;
}

/** What a step is doing: calling the model, running the tools it asked for, or answering without tools. */
export type StepPhase = 'model' | 'tools' | 'final';

/** How many tool names PreToolUse's `recent_tools` lists. */
const RECENT_TOOLS = 10;

/** The state of one agent (the main one or a subagent) during a run. */
export class RunContext {
  messages: ChatMessage[] = [];
  /** Index of the next step; continues across a resume. */
  stepIndex = 0;
  /** Steps taken in this run (maxSteps counts these). */
  stepsTaken = 0;
  lastText = '';
  /** Consecutive Stop / SubagentStop blocks. */
  stopBlocks = 0;
  /** The current (or, between steps, the last) step: `step` of every input. */
  step: { index: number; name: string } | null = null;
  /** Names of the tools this agent ran, most recent last (PreToolUse's `recent_tools`). */
  readonly recentTools: string[] = [];
  /** Hook context not yet shown to the model (see HookGateway). */
  readonly pendingContext: string[] = [];
  readonly hooks: HookGateway;
  readonly tools: Map<string, Tool>;
  readonly toolDefinitions: ToolDefinition[];

  constructor(
    readonly session: SessionScope,
    readonly identity: AgentIdentity,
    tools: Tool[],
    readonly transcript: Transcript,
  ) {
    this.tools = new Map();
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new RuntimeOptionError(`two tools are named "${tool.name}"; tool names must be unique`);
      this.tools.set(tool.name, tool);
    }
    this.toolDefinitions = tools.map(toolDefinition);
    this.hooks = new HookGateway(this);
  }

  /** Name the current step by what it does; `stepNames` in the agent options may rename each phase. */
  enterStep(index: number, phase: StepPhase): void {
    this.step = { index, name: this.session.options.stepNames?.[phase] ?? phase };
  }

  /** Remember a tool that ran, for `recent_tools`. */
  ranTool(name: string): void {
    this.recentTools.push(name);
    if (this.recentTools.length > RECENT_TOOLS) this.recentTools.shift();
    this.session.toolCalls++;
  }

  get isSubagent(): boolean {
    return this.identity.agentId !== undefined;
  }

  /** `{ agentId }` inside a subagent, for observer events. */
  get tag(): { agentId?: string } {
    return this.identity.agentId === undefined ? {} : { agentId: this.identity.agentId };
  }

  /** Hand pending hook context to the model as a user message, once. */
  deliverPendingContext(): void {
    if (this.pendingContext.length === 0) return;
    const text = this.pendingContext.splice(0).join('\n');
    this.addMessage({ role: 'user', content: `${HOOK_CONTEXT_HEADER}\n${text}` });
  }

  addMessage(message: ChatMessage): void {
    this.messages.push(message);
    this.transcript.message(message);
  }
}
