/**
 * What a person recognises a settings hook by in a timeline or `hookwise check`
 * (`settings:PreToolUse:<label>#<hash>`): the program a command runs (its first word,
 * after any `VAR=value`), or the script when that program is an interpreter
 * (`node .claude/hooks/guard.mjs` is `guard.mjs`); an HTTP hook's host; an MCP tool; else
 * the hook's type. Never a word picked from inside the command's arguments or quotes
 * (`echo '... package-lock.json.'` is `echo`). The hash after it keeps hooks with the same
 * label apart.
 */
export function hookLabel(type: string, entry: object): string {
  const e = entry as { command?: unknown; url?: unknown; server?: unknown; tool?: unknown };
  if (type === 'command' && typeof e.command === 'string') return commandLabel(e.command) ?? 'command';
  if (type === 'http' && typeof e.url === 'string') {
    try {
      return new URL(e.url).host;
    } catch {
      return 'http';
    }
  }
  if (type === 'mcp_tool') return `${String(e.server)}/${String(e.tool)}`;
  return type;
}

/** Programs that run the script named after them: the script says more than `node` or `sh`. */
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'bash',
  'sh',
  'zsh',
  'dash',
  'pwsh',
  'powershell',
  'uv',
  'npx',
  'bunx',
  'pnpx',
]);

const MAX = 40;

function commandLabel(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const program = nameOf(words[i]);
  if (program === undefined || !INTERPRETERS.has(program.toLowerCase())) return program;
  // `node --no-warnings x.mjs`, `uv run x.py`, `npx tool`: the first word that is neither an option nor `run`.
  const script = words.slice(i + 1).find((w) => !w.startsWith('-') && w !== 'run');
  return nameOf(script) ?? program;
}

/** A word's last path segment, without quotes; only characters a hook name can carry plainly. */
function nameOf(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const name = word
    .replace(/^["']+|["';&|)]+$/g, '')
    .split('/')
    .pop()!
    .replace(/[^A-Za-z0-9._@+-]/g, '')
    .replace(/^\.+|\.+$/g, '');
  return name === '' ? undefined : name.slice(0, MAX);
}
