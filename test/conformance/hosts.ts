import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Agent as OpenAIAgent, run as runOpenAI, setTracingDisabled, tool as openaiTool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { createAgent as createLangChainAgent, tool as lcTool, ToolMessage } from 'langchain';
import { z } from 'zod';
import { hookTools, HookwiseStopError } from '../../src/adapters/ai-sdk/index.js';
import { hookwiseMiddleware } from '../../src/adapters/langchain/index.js';
import { hookAgent } from '../../src/adapters/openai-agents/index.js';
import { engineFor, loadConfig } from '../../src/config/load.js';
import type { HookEngine } from '../../src/core/engine.js';
import { createAgent, defineTool, scriptedProvider } from '../../src/runtime/index.js';
import { scriptedModel } from '../adapters/ai-sdk-helpers.js';
import { ScriptedChatModel } from '../adapters/langchain-helpers.js';
import { cliPath, repoRoot } from '../cli/run-cli.js';
import type { Observed, Row } from './table.js';

export const POLICY = path.join(repoRoot, 'test/fixtures/conformance/policy.config.mjs');
const schema = z.object({ text: z.string(), mode: z.string() });
type Input = Row['input'];

export interface Host {
  /** The host whose row of expectations applies (TABLE's `except`). */
  name: string;
  call(input: Input): Promise<Observed>;
  close(): Promise<void>;
}

export async function policyEngine(): Promise<HookEngine> {
  return engineFor(await loadConfig({ files: [POLICY], cwd: repoRoot }));
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));

export async function runtimeHost(): Promise<Host> {
  const engine = await policyEngine();
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-conf-'));
  return {
    name: 'runtime',
    async call(input) {
      const ran: string[] = [];
      const echo = defineTool({ name: 'echo', description: 'Echo', input: schema, run: ({ text: t }) => (ran.push(t), t) });
      const result = await createAgent({
        provider: scriptedProvider([{ toolCalls: [{ name: 'echo', input, id: 'c1' }] }, { text: 'done' }]),
        tools: [echo],
        hooks: engine,
        cwd: dir,
        transcriptDir: dir,
        checkpointDir: false,
      }).run('go');
      const tool = result.messages.find((m) => m.role === 'tool');
      return { ran: ran[0] ?? null, seen: tool ? text(tool.content) : '', stopped: result.stopReason === 'hook_stop' };
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function aiSdkHost(): Promise<Host> {
  const engine = await policyEngine();
  return {
    name: 'ai-sdk',
    async call(input) {
      const ran: string[] = [];
      const tools = hookTools(engine, { echo: aiTool({ inputSchema: schema, execute: async ({ text: t }) => (ran.push(t), t) }) });
      const model = scriptedModel([{ calls: [{ id: 'c1', name: 'echo', input }] }, { text: 'done' }]);
      try {
        const result = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) });
        const output = result.steps.flatMap((s) => s.toolResults)[0]?.output;
        return { ran: ran[0] ?? null, seen: text(output), stopped: false };
      } catch (error) {
        if (!(error instanceof HookwiseStopError)) throw error;
        return { ran: ran[0] ?? null, seen: '', stopped: model.doGenerateCalls.length === 1 };
      }
    },
    close: async () => {},
  };
}

export async function openAIAgentsHost(): Promise<Host> {
  setTracingDisabled(true);
  const engine = await policyEngine();
  return {
    name: 'openai-agents',
    async call(input) {
      const ran: string[] = [];
      const model = new ScriptedModel([[functionCall('echo', input, { callId: 'c1' })], [assistantMessage('done')]]);
      const echo = openaiTool({ name: 'echo', description: 'Echo', parameters: schema, execute: async ({ text: t }) => (ran.push(t), t) });
      try {
        const result = await runOpenAI(hookAgent(engine, new OpenAIAgent({ name: 'a', model, tools: [echo] })), 'go');
        const item = result.newItems.find((i) => i.type === 'tool_call_output_item');
        return { ran: ran[0] ?? null, seen: item ? text((item as { output: unknown }).output) : '', stopped: false };
      } catch (error) {
        const cause = (error as { error?: unknown }).error;
        if (!(error instanceof HookwiseStopError) && !(cause instanceof HookwiseStopError)) throw error;
        return { ran: ran[0] ?? null, seen: '', stopped: model.calls.length === 1 };
      }
    },
    close: async () => {},
  };
}

export async function langChainHost(): Promise<Host> {
  const engine = await policyEngine();
  return {
    name: 'langchain',
    async call(input) {
      const ran: string[] = [];
      const echo = lcTool(async ({ text: t }: { text: string }) => (ran.push(t), t), { name: 'echo', description: 'Echo', schema });
      const model = new ScriptedChatModel([{ calls: [{ id: 'c1', name: 'echo', args: input }] }, { text: 'done' }]);
      const agent = createLangChainAgent({ model, tools: [echo], middleware: [hookwiseMiddleware(engine)] });
      try {
        const result = await agent.invoke({ messages: [{ role: 'user', content: 'go' }] });
        const message = result.messages.find((m) => ToolMessage.isInstance(m));
        return { ran: ran[0] ?? null, seen: message ? text(message.content) : '', stopped: false };
      } catch (error) {
        if (!(error instanceof HookwiseStopError)) throw error;
        return { ran: ran[0] ?? null, seen: '', stopped: model.seen.length === 1 };
      }
    },
    close: async () => {},
  };
}

/** Spawns `hookwise claude-code` per event and acts on its JSON output the way Claude Code does (headless: an ask is not granted). */
export async function claudeCodeHost(): Promise<Host> {
  return claudeCodeHostWith({ HOOKWISE_RESIDENT: '0' });
}

/**
 * The same, answered by a resident hookwise (docs/claude-code.md#the-resident) in a
 * folder of its own. The first call starts it; closing checks that it answered the
 * calls after that one, then stops it.
 */
export async function claudeCodeResidentHost(): Promise<Host> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-conf-res-'));
  const env = { HOOKWISE_RESIDENT: '1', HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents') };
  const host = await claudeCodeHostWith(env);
  return {
    ...host,
    close: async () => {
      const listed = await spawnCollect(process.execPath, [cliPath, 'residents', '--stop', '--json'], '', env);
      rmSync(dir, { recursive: true, force: true });
      const answered = (JSON.parse(listed.stdout) as Array<{ answered: number }>).reduce((n, r) => n + r.answered, 0);
      if (answered === 0) throw new Error(`no call was answered by a resident: ${listed.stdout}`);
    },
  };
}

async function claudeCodeHostWith(env: Record<string, string>): Promise<Host> {
  const fire = async (input: Record<string, unknown>): Promise<Record<string, any>> => {
    const { code, stdout } = await spawnCollect(process.execPath, [cliPath, 'claude-code', '--config', POLICY], JSON.stringify(input), env);
    if (code !== 0) throw new Error(`hookwise claude-code exited ${code}`);
    return stdout.trim() ? JSON.parse(stdout) : {};
  };
  const base = { session_id: 'conformance', cwd: repoRoot, transcript_path: '/dev/null', tool_name: 'echo', tool_use_id: 'c1' };
  return {
    name: 'claude-code',
    async call(input) {
      const pre = await fire({ ...base, hook_event_name: 'PreToolUse', tool_input: input });
      // As Claude Code 2.1 reads it (test/differential): a deny wins over `continue: false`, which otherwise lets the call run first.
      const specific = pre.hookSpecificOutput ?? {};
      if (specific.permissionDecision === 'deny') return { ran: null, seen: specific.permissionDecisionReason ?? '', stopped: false };
      if (specific.permissionDecision === 'ask') return { ran: null, seen: '', stopped: false };
      const args = (specific.updatedInput ?? input) as Input;
      const output = args.text;
      const post = await fire({ ...base, hook_event_name: 'PostToolUse', tool_input: args, tool_response: output });
      const seen = post.hookSpecificOutput?.updatedToolOutput ?? post.hookSpecificOutput?.updatedMCPToolOutput ?? output;
      // Claude Code shows PreToolUse's additionalContext to the model beside the call.
      const context = specific.additionalContext ? `\n${specific.additionalContext}` : '';
      return { ran: output, seen: `${text(seen)}${context}`, stopped: pre.continue === false || post.continue === false };
    },
    close: async () => {},
  };
}

/** A real MCP client over stdio to `hookwise mcp-proxy` in front of the fixture server; "ran" is what reached the server. */
export async function mcpProxyHost(): Promise<Host> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-conf-mcp-'));
  const callLog = path.join(dir, 'calls.log');
  let client: Client | null = null;
  const connect = async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    env.FIXTURE_CALL_LOG = callLog;
    const args = [
      cliPath,
      'mcp-proxy',
      '--config',
      POLICY,
      '--name',
      'conformance',
      '--',
      process.execPath,
      path.join(repoRoot, 'test/fixtures/mcp/server.mjs'),
    ];
    const c = new Client({ name: 'conformance', version: '1' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args, env, cwd: repoRoot, stderr: 'pipe' }));
    return c;
  };
  const calls = () => (existsSync(callLog) ? readFileSync(callLog, 'utf8').split('\n').filter(Boolean) : []);
  return {
    name: 'mcp-proxy',
    async call(input) {
      client ??= await connect();
      writeFileSync(callLog, '');
      const result = await client.callTool({ name: 'echo', arguments: input });
      const seen = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      const ran = calls()[0] ?? null;
      // A stop leaves this proxy refusing every call: that is how the client learns it.
      const probe = await client.callTool({ name: 'echo', arguments: { text: 'after', mode: 'none' } });
      const stopped = probe.isError === true && JSON.stringify(probe.content).includes('stopped the agent');
      if (stopped) {
        await client.close();
        client = null;
      }
      return { ran, seen, stopped };
    },
    close: async () => {
      await client?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function spawnCollect(
  command: string,
  args: string[],
  stdin: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(stdin);
  });
}
