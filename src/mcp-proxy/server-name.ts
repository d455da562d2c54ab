import path from 'node:path';

/** Launchers whose first argument, not their own name, says which server it is. */
const LAUNCHERS = new Set([
  'node',
  'npx',
  'pnpx',
  'bunx',
  'bun',
  'deno',
  'python',
  'python3',
  'uv',
  'uvx',
  'pipx',
  'docker',
  'tsx',
  'sh',
  'bash',
]);

/**
 * The `<server>` in `mcp__<server>__<tool>`: the command's name, or for a launcher
 * (`node server.mjs`, `npx -y @scope/server-x`) its first argument that is not a
 * flag, without extension or scope. Claude Code allows letters, digits, `_` and `-`.
 */
export function serverNameFor(command: string[]): string {
  const [head, ...rest] = command;
  let name = base(head ?? 'server');
  if (LAUNCHERS.has(name)) {
    const target = rest.find((a) => !a.startsWith('-') && a !== 'run' && a !== 'exec');
    if (target) name = base(target);
  }
  return sanitize(name);
}

export function serverNameForUrl(url: URL): string {
  return sanitize(url.hostname.split('.')[0] || 'server');
}

function base(arg: string): string {
  const last = arg.split('/').filter(Boolean).at(-1) ?? arg;
  return path
    .basename(last)
    .replace(/\.(m?[jt]s|cjs|py|exe)$/, '')
    .replace(/@[^@]*$/, (v) => (last.startsWith('@') && v === last ? v : ''));
}

function sanitize(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^_+|_+$/g, '');
  return clean || 'server';
}
