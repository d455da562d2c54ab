import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMockAnthropic } from './mock-anthropic.mjs';

/**
 * Runs one case two ways and reduces each run to the same observation:
 * - real Claude Code, headless, against a local mock of the Messages API that makes
 *   the case's tool calls, with the case's .claude/settings.json and hook scripts;
 * - hookwise's engine, loaded from the same settings.json, fired with the inputs Claude
 *   Code sends, and a host that acts on the Outcomes as Claude Code acts on hook output.
 *
 * Observation, per tool call: did it run (and which command), did the model see the
 * case's `reason` (a block reason) or `context`, was the output it saw replaced; and
 * for the run: did the turn end early, did a Stop hook keep the agent going.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const CLAUDE_CODE_VERSION = '2.1.197';
const cacheDir = path.join(repoRoot, '.cache', `claude-code-${CLAUDE_CODE_VERSION}`);

/** Claude Code's native binary, installed once into .cache/ (outside git). */
export function claudeBinary() {
  if (process.env.CLAUDE_CODE_BIN) return process.env.CLAUDE_CODE_BIN;
  const platform = `${process.platform}-${process.arch}`;
  const bin = path.join(
    cacheDir,
    'node_modules',
    '@anthropic-ai',
    `claude-code-${platform}`,
    process.platform === 'win32' ? 'claude.exe' : 'claude',
  );
  if (!existsSync(bin)) {
    mkdirSync(cacheDir, { recursive: true });
    if (!existsSync(path.join(cacheDir, 'package.json'))) writeFileSync(path.join(cacheDir, 'package.json'), '{"private":true}\n');
    process.stderr.write(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${cacheDir}\n`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
      cwd: cacheDir,
      stdio: 'inherit',
    });
    if (r.status !== 0 || !existsSync(bin))
      throw new Error(`could not install Claude Code ${CLAUDE_CODE_VERSION} (npm exited ${r.status})`);
  }
  return bin;
}

/** A project folder with the case's settings and scripts. */
function makeProject(c, mockUrl) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-diff-'));
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, '.claude', 'hooks'), { recursive: true });
  for (const [name, text] of Object.entries(c.scripts ?? {}))
    writeFileSync(path.join(project, '.claude', 'hooks', name), text, { mode: 0o755 });
  for (const [name, text] of Object.entries(c.files ?? {})) {
    mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    writeFileSync(path.join(project, name), text.replaceAll('$REPO', repoRoot).replaceAll('$MOCK', mockUrl));
  }
  const settings = JSON.parse(JSON.stringify(c.settings).replaceAll('$REPO', repoRoot).replaceAll('$MOCK', mockUrl));
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
  return { dir, project };
}

/** Tool call n of a case: a Bash command that leaves its marker `m<n>` in ran.log. */
export const bash = (n, text = `m${n}`) => ({
  name: 'Bash',
  input: { command: `echo ${text} >> ran.log && echo out-${text}`, description: `step ${n}` },
});

/** Lines hook scripts appended to hooks.log: how many times they ran. */
function hookRuns(project) {
  const log = path.join(project, 'hooks.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
}

function ranMarkers(project) {
  const log = path.join(project, 'ran.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? textOf(b.content) : '')).join('\n');
}

/** Run real Claude Code on the case; returns the observation. */
export async function runClaudeCode(c) {
  const mock = await startMockAnthropic();
  const { dir, project } = makeProject(c, mock.url);
  const home = path.join(dir, 'home');
  mkdirSync(home);
  try {
    const prompt = `${c.prompt ?? 'Do it.'}\nSCRIPT: ${JSON.stringify(c.calls)}`;
    const child = spawn(
      claudeBinary(),
      ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--max-turns', '8'],
      {
        cwd: project,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          ANTHROPIC_BASE_URL: mock.url,
          ANTHROPIC_API_KEY: 'sk-ant-test',
          IS_SANDBOX: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          // The drop-in's residents (docs/claude-code.md#the-resident) live with the case and are stopped after it.
          HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents'),
          ...c.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    const main = mock.requests.filter(
      (r) => Array.isArray(r.body.messages) && r.body.messages.some((m) => m.role === 'user' && /SCRIPT: /.test(textOf(m.content))),
    );
    const last = main.at(-1)?.body.messages ?? [];
    const markers = ranMarkers(project);
    const calls = c.calls.map((_call, n) => {
      const id = `toolu_`;
      const result = last
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter((b) => b.type === 'tool_result' && b.tool_use_id.startsWith(id) && b.tool_use_id.endsWith(`_${n}`))[0];
      const seen = result ? textOf(result.content) : null;
      return {
        ran: markers.filter((m) => m.startsWith(`m${n}`)).join(',') || null,
        reasonSeen: c.reason !== undefined && main.slice(n + 1).some((r) => JSON.stringify(r.body.messages).includes(c.reason)),
        outputReplaced: c.replaced !== undefined && (seen?.includes(c.replaced) ?? false),
      };
    });
    const allText = main.map((r) => JSON.stringify(r.body.messages)).join('\n');
    return {
      ...(c.inspect ? { inspected: c.inspect(project) } : {}),
      calls,
      hookRuns: hookRuns(project),
      contextSeen: c.context !== undefined && allText.includes(c.context),
      // The model was called after the last tool result: the turn did not end early.
      turnEnded: main.length <= c.calls.length,
      stopFeedbackSeen: c.stopReason !== undefined && allText.includes(c.stopReason),
      raw: { code, requests: main.length, stderr: err.slice(-2000), stdout: out.slice(-20000) },
    };
  } finally {
    await mock.close();
    spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'hookwise.js'), 'residents', '--stop', '--all'], {
      env: { ...process.env, HOOKWISE_RESIDENT_DIR: path.join(dir, 'residents') },
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run hookwise's engine on the same settings, as a host that acts like Claude Code. */
export async function runHookwise(c) {
  const mock = await startMockAnthropic();
  const { dir, project } = makeProject(c, mock.url);
  const { loadConfig, engineFor } = await import(path.join(repoRoot, 'dist', 'config', 'load.js'));
  const { outputFitsTool } = await import(path.join(repoRoot, 'dist', 'compat', 'claude-code.js'));
  const previous = {
    CLAUDE_PROJECT_DIR: process.env.CLAUDE_PROJECT_DIR,
    ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL,
    ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
  };
  process.env.CLAUDE_PROJECT_DIR = project;
  // Prompt hooks judge with the same mock model Claude Code's use.
  process.env.ANTHROPIC_BASE_URL = mock.url;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test';
  try {
    const engine = engineFor(await loadConfig({ files: [path.join(project, '.claude', 'settings.json')], cwd: project }));
    const base = { session_id: 'diff', transcript_path: path.join(dir, 't.jsonl'), cwd: project, permission_mode: 'bypassPermissions' };
    const start = await engine.fire('SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' });
    const context = [start.additionalContext ?? ''];
    const prompt = await engine.fire('UserPromptSubmit', { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'Do it.' });
    context.push(prompt.additionalContext ?? '');
    const calls = [];
    let turnEnded = prompt.blocked || prompt.stop;
    for (const [n, call] of c.calls.entries()) {
      if (turnEnded) break;
      const input = { ...base, hook_event_name: 'PreToolUse', tool_name: call.name, tool_input: call.input, tool_use_id: `toolu_1_${n}` };
      const pre = await engine.fire('PreToolUse', input);
      const obs = { ran: null, reasonSeen: false, outputReplaced: false };
      context.push(pre.additionalContext ?? '');
      // bypassPermissions: ask and defer run the tool as allow does; deny refuses it.
      const refused = pre.blocked || pre.decision === 'deny';
      if (refused) obs.reasonSeen = c.reason !== undefined && (pre.reason ?? '').includes(c.reason);
      else {
        const toolInput = pre.updatedInput ?? call.input;
        const r = spawnSync('bash', ['-c', String(toolInput.command)], { cwd: project, encoding: 'utf8' });
        obs.ran =
          ranMarkers(project)
            .filter((m) => m.startsWith(`m${n}`))
            .join(',') || null;
        const response = { stdout: r.stdout.trim(), stderr: r.stderr.trim(), interrupted: false, isImage: false, noOutputExpected: false };
        const post = await engine.fire('PostToolUse', {
          ...input,
          hook_event_name: 'PostToolUse',
          tool_input: toolInput,
          tool_response: response,
          duration_ms: 5,
        });
        context.push(post.additionalContext ?? '');
        // Claude Code keeps the original output when the replacement does not fit the tool's output.
        const shown =
          post.updatedOutput !== null && outputFitsTool(response, post.updatedOutput, call.name) ? post.updatedOutput : response.stdout;
        obs.outputReplaced = c.replaced !== undefined && JSON.stringify(shown).includes(c.replaced);
        if (post.blocked && c.reason !== undefined && (post.reason ?? '').includes(c.reason)) obs.reasonSeen = true;
        if (post.stop) turnEnded = true;
      }
      if (pre.stop) turnEnded = true;
      calls.push(obs);
    }
    let stopFeedbackSeen = false;
    if (!turnEnded) {
      const stop = await engine.fire('Stop', { ...base, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
      stopFeedbackSeen = c.stopReason !== undefined && stop.blocked && !stop.stop && (stop.reason ?? '').includes(c.stopReason);
      // Claude Code feeds a Stop hook's additionalContext to the model and goes on.
      context.push(stop.additionalContext ?? '');
    }
    const allContext = context.join('\n');
    const ended = turnEnded || calls.length < c.calls.length;
    while (calls.length < c.calls.length) calls.push({ ran: null, reasonSeen: false, outputReplaced: false });
    await engine.drain();
    return {
      calls,
      hookRuns: hookRuns(project),
      contextSeen: c.context !== undefined && allContext.includes(c.context),
      turnEnded: ended,
      stopFeedbackSeen,
    };
  } finally {
    await mock.close();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
