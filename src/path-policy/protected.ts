/**
 * Files that stay dangerous inside the workspace. Patterns are globs matched,
 * case-insensitively, against the path relative to the root it lies in (the
 * workspace or an extra allowed root, e.g. a home folder), so `.GIT/hooks` is
 * caught too. Patterns without `**` apply at that root only: a shell reads
 * `~/.bashrc`, not `src/.bashrc`.
 */
export interface PathRule {
  pattern: string;
  /** Completes "… is a protected file (<why>)". */
  why: string;
}

const ENV_TEMPLATES = ['**/.env.example', '**/.env.sample', '**/.env.template', '**/.env.dist', '**/.env.defaults'];

const RC_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
];

/** Files that name programs an editor, an agent's MCP client or git runs on its own. */
const LAUNCH_CONFIGS = [
  '**/.mcp.json',
  '**/.cursor/mcp.json',
  '**/.cursor/environment.json',
  '**/.vscode/tasks.json',
  '**/.vscode/launch.json',
  '**/.vscode/settings.json',
  '**/.vscode/mcp.json',
  '**/.devcontainer/devcontainer.json',
  // A folder of configurations, one per container (`.devcontainer/python/devcontainer.json`): each runs its commands.
  '**/.devcontainer/*/devcontainer.json',
  '**/.devcontainer.json',
  // A workspace file's tasks and launch configurations run as the folder's do.
  '**/*.code-workspace',
  '**/.gemini/settings.json',
  '**/.codex/config.toml',
  '**/.amazonq/mcp.json',
  '**/.roo/mcp.json',
  '**/.windsurf/mcp.json',
  '**/.zed/settings.json',
  '**/.idea/workspace.xml',
  '**/.idea/runConfigurations/**',
  '**/.claude/hooks/**',
  // The mod `hookwise init claude-code --mod` writes: rewritten, the next session would load it without hookwise.
  '**/.claude/hookwise-mod/**',
  // OpenCode runs every plugin and tool there at start (hookwise's own plugin among them), and its config names more.
  // The hook files and hooks config an agent runs hookwise from: rewritten, they would run without it.
  '**/.clinerules/hooks/**',
  '**/.cline/hooks/**',
  '**/.github/hooks/**',
  '**/.factory/hooks.json',
  '**/.opencode/plugin/**',
  '**/.opencode/plugins/**',
  '**/.opencode/tool/**',
  '**/.opencode/tools/**',
  '**/.opencode/package.json',
  '**/opencode.json',
  '**/opencode.jsonc',
  '**/.husky/**',
  '**/.githooks/**',
  // Git hook managers: each runs the commands its file names on the next commit (lefthook reads every one of these names).
  ...['lefthook', '.lefthook', 'lefthook-local', '.lefthook-local'].flatMap((name) =>
    ['yml', 'yaml', 'json', 'jsonc', 'toml'].map((ext) => `**/${name}.${ext}`),
  ),
  '**/.pre-commit-config.yaml',
  '**/.pre-commit-config.yml',
  // mise runs its [hooks] and `_.source` files on entering the folder, as direnv runs .envrc.
  '**/mise.toml',
  '**/.mise.toml',
  '**/mise.local.toml',
  '**/.mise.local.toml',
  '**/mise.*.toml',
  '**/.mise/**',
  '**/.config/mise/**',
  // JetBrains' shared run configurations (besides .idea/runConfigurations).
  '**/.run/*.run.xml',
  '.npmrc',
  '.yarnrc.yml',
  '.yarnrc',
];

/**
 * hookwise's state folders: `.hookwise/` anywhere in the workspace (the default
 * audit database, its -wal, its `.head` anchor, `audit.key`), and the per-user
 * state folder (`~/.local/state/hookwise`, kept outside the workspace) when the
 * home folder is an allowed root.
 */
const HOOKWISE_STATE = ['**/.hookwise', '**/.hookwise/**', '.local/state/hookwise', '.local/state/hookwise/**'];

/** Why hookwise's own state is protected, wherever it is. */
export const HOOKWISE_STATE_WHY = "hookwise's own state: the audit trail, its anchor, approvals and keys";

/** Write-protected by default. */
export const DEFAULT_PROTECTED: PathRule[] = [
  { pattern: '**/.git', why: 'git metadata: hooks and config there run code' },
  { pattern: '**/.git/**', why: 'git metadata: hooks and config there run code' },
  { pattern: '**/.claude/settings*.json', why: 'Claude Code settings decide which hooks and permissions apply' },
  { pattern: 'hookwise.config.*', why: "hookwise's own configuration" },
  // The audit trail, its anchor, the approvals and the keys: an agent that can rewrite them approves its own requests.
  ...HOOKWISE_STATE.map((pattern) => ({ pattern, why: HOOKWISE_STATE_WHY })),
  ...RC_FILES.map((f) => ({ pattern: f, why: 'a shell startup file runs in every new shell' })),
  { pattern: '.config/fish/config.fish', why: 'a shell startup file runs in every new shell' },
  { pattern: '**/.env', why: 'environment files hold secrets' },
  { pattern: '**/.env.*', why: 'environment files hold secrets' },
  { pattern: '**/.envrc', why: 'direnv runs it on entering the folder' },
  ...LAUNCH_CONFIGS.map((pattern) => ({ pattern, why: 'an editor, agent or git tool launches the programs it names' })),
];

/** Read-protected by default; `~` is the home folder. */
export const DEFAULT_SECRETS: PathRule[] = [
  { pattern: '~/.ssh', why: 'SSH keys' },
  { pattern: '~/.ssh/**', why: 'SSH keys' },
  { pattern: '~/.aws', why: 'AWS credentials' },
  { pattern: '~/.aws/**', why: 'AWS credentials' },
  { pattern: '~/.gnupg', why: 'GnuPG keys' },
  { pattern: '~/.gnupg/**', why: 'GnuPG keys' },
  { pattern: '~/.netrc', why: 'login passwords' },
  { pattern: '~/.git-credentials', why: 'git passwords' },
  { pattern: '~/.npmrc', why: 'registry tokens' },
  { pattern: '~/.pypirc', why: 'registry tokens' },
  { pattern: '~/.docker/config.json', why: 'registry credentials' },
  { pattern: '~/.kube/config', why: 'cluster credentials' },
  { pattern: '~/.config/gh/hosts.yml', why: 'GitHub tokens' },
  { pattern: '~/.cargo/credentials', why: 'registry tokens' },
  { pattern: '~/.cargo/credentials.toml', why: 'registry tokens' },
  { pattern: '~/.gem/credentials', why: 'registry tokens' },
  { pattern: '~/.terraform.d/credentials.tfrc.json', why: 'Terraform Cloud tokens' },
  { pattern: '~/.vault-token', why: 'a Vault token' },
  { pattern: '~/.config/git/credentials', why: 'git passwords' },
  // Coding agents' own logins: whoever reads one acts as the user's agent account.
  { pattern: '~/.claude/.credentials.json', why: "Claude Code's login token" },
  { pattern: '~/.codex/auth.json', why: "Codex's login token" },
  { pattern: '~/.gemini/oauth_creds.json', why: "Gemini CLI's login token" },
  // A container engine's socket is the machine: whoever reaches it runs any container, with any folder mounted.
  { pattern: '~/.docker/desktop', why: "Docker Desktop's socket, which controls the machine" },
  { pattern: '~/.docker/run', why: "Docker Desktop's socket, which controls the machine" },
  { pattern: '~/.colima', why: "Colima's container engine socket, which controls the machine" },
  { pattern: '~/.rd', why: "Rancher Desktop's container engine socket, which controls the machine" },
  { pattern: '~/.orbstack', why: "OrbStack's container engine socket, which controls the machine" },
  { pattern: '~/.config/gcloud', why: 'Google Cloud credentials' },
  { pattern: '~/.config/gcloud/**', why: 'Google Cloud credentials' },
  { pattern: '~/.azure', why: 'Azure credentials' },
  { pattern: '~/.azure/**', why: 'Azure credentials' },
  { pattern: '/etc/shadow', why: 'password hashes' },
  { pattern: '/etc/gshadow', why: 'password hashes' },
  { pattern: '/etc/sudoers', why: 'sudo rules' },
  { pattern: '/etc/sudoers.d/**', why: 'sudo rules' },
  { pattern: '/etc/ssh/ssh_host_*_key', why: 'SSH host keys' },
  { pattern: '/proc/*/environ', why: "a process's environment, which holds secrets" },
  { pattern: '**/.env', why: 'environment files hold secrets' },
  { pattern: '**/.env.*', why: 'environment files hold secrets' },
  { pattern: '**/id_rsa', why: 'an SSH private key' },
  { pattern: '**/id_dsa', why: 'an SSH private key' },
  { pattern: '**/id_ecdsa', why: 'an SSH private key' },
  { pattern: '**/id_ed25519', why: 'an SSH private key' },
  { pattern: '**/*.pem', why: 'a key or certificate file' },
  { pattern: '**/*.key', why: 'a private key file' },
  { pattern: '**/.hookwise/audit.key', why: "hookwise's audit key: whoever reads it can sign a forged audit head or approval" },
  { pattern: '~/.local/state/hookwise/**/*.key', why: "hookwise's audit key: whoever reads it can sign a forged audit head or approval" },
];

/** Never secret: public halves and templates. */
export const SECRET_EXCEPTIONS = ['**/*.pub', '**/known_hosts', '**/known_hosts.old', ...ENV_TEMPLATES];
export const PROTECTED_EXCEPTIONS = [...ENV_TEMPLATES];
