import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMockAnthropic } from '../differential/mock-anthropic.mjs';
import { startMockChatCompletions } from './mock-chat-completions.mjs';
import { startMockGemini } from './mock-gemini.mjs';
import { openCodeUserConfig } from './opencode-user-config.mjs';

/**
 * Each coding agent the suite drives: its pinned version from npm (installed once into
 * .cache/, never a dependency of hookwise), its own model configuration pointed at the
 * loopback mock, how a script step becomes one of its tool calls, and how it runs
 * headless. hookwise itself is wired in by `hookwise init <agent>` and nothing else.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../..');
const HOOKWISE = path.join(repoRoot, 'bin', 'hookwise.js');
/** The npm cache every OpenCode case shares, as a user's runs share their ~/.npm. */
const OPENCODE_NPM_CACHE = path.join(repoRoot, '.cache', 'opencode-npm-cache');

/** A patch changing one line of a file, as Codex, droid and Cline write edits. */
const updatePatch = (file, before, after) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-${before}\n+${after}\n*** End Patch\n`;

export const AGENTS = {
  codex: {
    label: 'Codex CLI',
    pkg: '@openai/codex',
    version: '0.169.0',
    bin: 'codex',
    /** Codex reads its provider from $CODEX_HOME/config.toml; hooks from $CODEX_HOME/hooks.json. */
    setup({ home, mockUrl }) {
      const codexHome = path.join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        path.join(codexHome, 'config.toml'),
        `model = "gpt-5.1-codex"\nmodel_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "${mockUrl}/v1"\nwire_api = "responses"\nenv_key = "MOCK_KEY"\n`,
      );
      return { CODEX_HOME: codexHome, MOCK_KEY: 'x' };
    },
    mcp({ home, server }) {
      const args = server.args.map((a) => JSON.stringify(a)).join(', ');
      const toml = `\n[mcp_servers.sentinel]\ncommand = ${JSON.stringify(server.command)}\nargs = [${args}]\n`;
      appendFileSync(path.join(home, '.codex', 'config.toml'), toml);
    },
    /** `codex exec` shows that a hook blocked the prompt, not the hook's reason. */
    refusalShownAs: /hook: UserPromptSubmit Blocked/,
    args: (prompt) => ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', prompt],
    shell: (command) => ({ name: 'exec_command', args: { cmd: command } }),
    /** Codex edits files with patch text, which it applies itself when handed to its shell tool. */
    write: (file, content) => ({
      name: 'exec_command',
      args: {
        cmd: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${file}\n${content
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch\nEOF\n`,
      },
    }),
    edit: (file, before, after) => ({
      name: 'exec_command',
      args: { cmd: `apply_patch <<'EOF'\n${updatePatch(file, before, after)}EOF\n` },
    }),
  },
  copilot: {
    label: 'Copilot CLI',
    pkg: '@github/copilot',
    version: '1.0.102',
    bin: 'copilot',
    /**
     * BYOK against the mock, offline. The folder is not trusted (no COPILOT_ALLOW_ALL, which
     * would trust it): Copilot then runs only the user's hooks, which `hookwise init copilot` writes.
     */
    setup({ home, mockUrl }) {
      return {
        COPILOT_HOME: path.join(home, '.copilot'),
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
        COPILOT_PROVIDER_WIRE_API: 'responses',
        COPILOT_PROVIDER_API_KEY: 'x',
        COPILOT_MODEL: 'gpt-5',
        COPILOT_AUTO_UPDATE: 'false',
      };
    },
    mcp({ home, server }) {
      mkdirSync(path.join(home, '.copilot'), { recursive: true });
      const config = { mcpServers: { sentinel: { type: 'local', ...server, tools: ['*'] } } };
      writeFileSync(path.join(home, '.copilot', 'mcp-config.json'), JSON.stringify(config));
    },
    args: (prompt) => ['-p', prompt, '--allow-all-tools'],
    shell: (command) => ({ name: 'bash', args: { command, description: 'step' } }),
    write: (file, content, project) => ({ name: 'create', args: { path: path.join(project, file), file_text: content } }),
    edit: (file, before, after, project) => ({ name: 'edit', args: { path: path.join(project, file), old_str: before, new_str: after } }),
  },
  droid: {
    label: 'droid',
    pkg: 'droid',
    version: '0.215.0',
    bin: 'droid',
    /** A custom model in ~/.factory/settings.json (OpenAI Responses wire, the mock); hooks in ~/.factory/hooks.json. */
    setup({ home, mockUrl }) {
      mkdirSync(path.join(home, '.factory'), { recursive: true });
      const model = {
        model: 'gpt-5',
        displayName: 'Mock',
        baseUrl: `${mockUrl}/v1`,
        apiKey: 'x',
        provider: 'openai',
        maxOutputTokens: 1000,
      };
      writeFileSync(path.join(home, '.factory', 'settings.json'), JSON.stringify({ customModels: [model] }));
      return {};
    },
    mcp({ home, server }) {
      writeFileSync(path.join(home, '.factory', 'mcp.json'), JSON.stringify({ mcpServers: { sentinel: { type: 'stdio', ...server } } }));
    },
    args: (prompt) => ['exec', '--skip-permissions-unsafe', '-m', 'custom:Mock-0', prompt],
    shell: (command) => ({ name: 'Execute', args: { command, summary: 'step' } }),
    /** With an OpenAI model droid edits files through ApplyPatch, a free-text tool taking the patch. */
    write: (file, content) => ({
      custom: true,
      name: 'ApplyPatch',
      input: `*** Begin Patch\n*** Add File: ${file}\n${content
        .split('\n')
        .map((l) => `+${l}`)
        .join('\n')}\n*** End Patch\n`,
    }),
    edit: (file, before, after) => ({ custom: true, name: 'ApplyPatch', input: updatePatch(file, before, after) }),
  },
  opencode: {
    label: 'OpenCode',
    pkg: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    startMock: startMockChatCompletions,
    /**
     * The mock as an `@ai-sdk/openai-compatible` provider (bundled in OpenCode), given in
     * OPENCODE_CONFIG_CONTENT: the project stays the user's. OpenCode installs
     * `@opencode-ai/plugin` from npm into each of its config folders that lacks it (the
     * user's `~/.config/opencode`, and the project's `.opencode/`, which `hookwise init
     * opencode` creates) and, when a plugin is there, waits for those installs before its
     * first request. A user who has run OpenCode before has it in their own folder: so has
     * each case's home (./opencode-user-config.mjs). The project's install, once per project
     * for a user, is every case's, from one npm cache (a user's ~/.npm). Nothing is fetched
     * from models.dev.
     */
    setup({ home, mockUrl, mcpServer }) {
      openCodeUserConfig(path.join(home, '.config', 'opencode'), this.version);
      const config = {
        model: 'mock/mock-model',
        autoupdate: false,
        share: 'disabled',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: `${mockUrl}/v1`, apiKey: 'x' },
            models: { 'mock-model': { name: 'Mock', tool_call: true } },
          },
        },
      };
      if (mcpServer) config.mcp = { sentinel: { type: 'local', command: [mcpServer.command, ...mcpServer.args], enabled: true } };
      return {
        OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        npm_config_cache: OPENCODE_NPM_CACHE,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local', 'share'),
        OPENCODE_DISABLE_AUTOUPDATE: 'true',
        OPENCODE_DISABLE_MODELS_FETCH: 'true',
        OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
      };
    },
    /**
     * `opencode run` quotes each argument that holds a space before joining them: one word per
     * argument keeps the prompt as it is, and after `--` a word such as `-s` is not read as an option.
     */
    /** A prompt the plugin refuses never reaches the model; `opencode run` shows nothing of why (it logs it). */
    refusedPromptUnseen: true,
    args: (prompt) => ['run', '--dangerously-skip-permissions', '--', ...prompt.split(' ')],
    shell: (command) => ({ name: 'bash', args: { command, description: 'step' } }),
    write: (file, content, project) => ({ name: 'write', args: { filePath: path.join(project, file), content } }),
    edit: (file, before, after, project) => ({
      name: 'edit',
      args: { filePath: path.join(project, file), oldString: before, newString: after },
    }),
  },
  'claude-code-mod': {
    label: 'Claude Code (mod)',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.328',
    bin: 'claude',
    /** The native binary itself: the package's postinstall, which would link it into .bin, is not run by npm here. */
    binPath: `@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`,
    /** `hookwise init claude-code --mod`: the in-process mod in .claude/hookwise-mod (docs/claude-code.md#the-mod). */
    init: ['claude-code', '--mod'],
    setup({ mockUrl }) {
      return {
        ANTHROPIC_BASE_URL: mockUrl,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
    },
    mcp({ home, server }) {
      const file = path.join(home, 'mcp.json');
      writeFileSync(file, JSON.stringify({ mcpServers: { sentinel: { type: 'stdio', ...server } } }));
      return { args: ['--mcp-config', file] };
    },
    mcpStep: (tool, args) => ({ name: `@mcp:${tool}`, input: args }),
    /** Anthropic's Messages API, recorded as the other mocks record theirs. */
    startMock: startMockAnthropic,
    args: (prompt, project) => [
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--max-turns',
      '8',
      // The mod loads from the project (written by init); the control run has none.
      ...(project && existsSync(path.join(project, '.claude', 'hookwise-mod')) ? ['--plugin-dir', '.claude/hookwise-mod'] : []),
    ],
    shell: (command) => ({ name: 'Bash', input: { command, description: 'step' } }),
    write: (file, content, project) => ({ name: 'Write', input: { file_path: path.join(project, file), content } }),
    edit: (file, before, after, project) => ({
      name: 'Edit',
      input: { file_path: path.join(project, file), old_string: before, new_string: after },
    }),
  },
  cline: {
    label: 'Cline CLI',
    pkg: 'cline',
    version: '3.0.65',
    bin: 'cline',
    /** Its OpenAI-compatible provider speaks Chat Completions. */
    startMock: startMockChatCompletions,
    /**
     * The provider in ~/.cline/data/settings/providers.json (what `cline auth -p openai-compatible`
     * writes). The local backend: otherwise each run starts a hub daemon that outlives it.
     */
    setup({ home, mockUrl }) {
      const settings = path.join(home, '.cline', 'data', 'settings');
      mkdirSync(settings, { recursive: true });
      const provider = { provider: 'openai-compatible', apiKey: 'x', model: 'gpt-4o', baseUrl: `${mockUrl}/v1` };
      writeFileSync(
        path.join(settings, 'providers.json'),
        JSON.stringify({
          version: 1,
          lastUsedProvider: 'openai-compatible',
          modes: {},
          providers: { 'openai-compatible': { settings: provider, updatedAt: new Date().toISOString(), tokenSource: 'manual' } },
        }),
      );
      return { CLINE_SESSION_BACKEND_MODE: 'local', CLINE_NO_AUTO_UPDATE: '1' };
    },
    mcp({ home, server }) {
      const settings = path.join(home, '.cline', 'data', 'settings');
      const config = { mcpServers: { sentinel: { ...server, disabled: false, autoApprove: ['touch'] } } };
      writeFileSync(path.join(settings, 'cline_mcp_settings.json'), JSON.stringify(config));
    },
    /** A hook's `cancel` ends the run; its --json output says so, not the hook's errorMessage. */
    refusalShownAs: /"finishReason":"aborted"/,
    args: (prompt) => ['--json', '-P', 'openai-compatible', '-m', 'gpt-4o', prompt],
    shell: (command) => ({ name: 'run_commands', args: { commands: [command] } }),
    /** Several commands in one call: Cline runs each (concurrently); hookwise judges each. */
    shells: (commands) => ({ name: 'run_commands', args: { commands } }),
    /** With an OpenAI model Cline edits files through apply_patch (its `editor` is for other models). */
    write: (file, content) => ({
      name: 'apply_patch',
      args: {
        input: `*** Begin Patch\n*** Add File: ${file}\n${content
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch\n`,
      },
    }),
    edit: (file, before, after) => ({ name: 'apply_patch', args: { input: updatePatch(file, before, after) } }),
  },
  gemini: {
    label: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    /** Its own model API (Gemini's generateContent), mocked by ./mock-gemini.mjs. */
    startMock: startMockGemini,
    /**
     * An API key against the mock: without `selectedType` and an explicit `-m` its model
     * router retries classifier calls for minutes. No folder is trusted beforehand (see args).
     */
    setup({ home, mockUrl, mcpServer }) {
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      const settings = {
        ...(mcpServer && { mcpServers: { sentinel: { ...mcpServer, trust: true } } }),
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
      };
      writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
      return { GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: mockUrl };
    },
    /**
     * --skip-trust, as Gemini's own refusal tells a headless user: headless it refuses an
     * untrusted folder outright (FatalUntrustedWorkspaceError, 0.61.0), and the flag trusts the
     * folder for the session (GEMINI_CLI_TRUST_WORKSPACE=true): the project's settings load too.
     */
    args: (prompt) => ['-m', 'gemini-2.5-flash', '--yolo', '--skip-trust', '-p', prompt],
    shell: (command) => ({ name: 'run_shell_command', args: { command } }),
    write: (file, content, project) => ({ name: 'write_file', args: { file_path: path.join(project, file), content } }),
    edit: (file, before, after, project) => ({
      name: 'replace',
      args: { file_path: path.join(project, file), old_string: before, new_string: after, instruction: 'step' },
    }),
  },
};

/** The sentinel MCP server (./mcp-sentinel.mjs), as every agent's MCP configuration starts it. */
export const mcpServerFor = (project) => ({
  command: process.execPath,
  args: [path.join(import.meta.dirname, 'mcp-sentinel.mjs'), project],
});

/** The agent's command, installed once into .cache/. */
export function agentBinary(name) {
  const agent = AGENTS[name];
  const dir = path.join(repoRoot, '.cache', `${name}-${agent.version}`);
  const bin = path.join(dir, 'node_modules', ...(agent.binPath ? [agent.binPath] : ['.bin', agent.bin]));
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    process.stderr.write(`installing ${agent.pkg}@${agent.version} into ${dir}\n`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `${agent.pkg}@${agent.version}`], { cwd: dir, stdio: 'inherit' });
    if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${agent.pkg}@${agent.version} (npm exited ${r.status})`);
  }
  return bin;
}

/** The arguments of `hookwise init` for that agent. */
export const initArgs = (name) => AGENTS[name].init ?? [name];

/** `hookwise init <agent>` in the project, as a user would run it: the only set-up of hookwise. */
export function initAgent(name, project, env) {
  const r = spawnSync(process.execPath, [HOOKWISE, 'init', ...initArgs(name)], { cwd: project, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hookwise init ${name} exited ${r.status}: ${r.stderr}`);
}

/** Run the agent headless on the prompt; resolves with its exit code and output, and whether it was killed at the time limit. */
export function runAgent(name, { project, prompt, env, extraArgs = [], timeoutMs = 150_000 }) {
  const child = spawn(agentBinary(name), [...AGENTS[name].args(prompt, project), ...extraArgs], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let killed = false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed, output: out.slice(-6000) });
    });
  });
}

export function stopResidents(env) {
  spawnSync(process.execPath, [HOOKWISE, 'residents', '--stop', '--all'], { env });
}
