import net from 'node:net';

/**
 * The hosts a sandboxed command may reach through hookwise's network proxy
 * (docs/security.md#the-os-sandbox), and how a host name is matched against them.
 */

/**
 * `network: 'registries'`: the package registries and git remotes a coding agent's
 * everyday commands fetch from (npm/yarn/pnpm, PyPI, crates.io, the Go proxy, GitHub,
 * GitLab, Bitbucket). Each one can also receive what a command sends it (a push, a
 * publish): the list opens the sandbox to these hosts, not to their content.
 */
export const REGISTRIES: readonly string[] = Object.freeze([
  // npm, pnpm and yarn (classic and berry)
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'repo.yarnpkg.com',
  // PyPI (the index and the files it links to)
  'pypi.org',
  'files.pythonhosted.org',
  // crates.io (the sparse index and the downloads)
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  // the Go module proxy and checksum database
  'proxy.golang.org',
  'sum.golang.org',
  // git remotes over HTTPS, and GitHub's archive and raw downloads (npm's github: dependencies)
  'github.com',
  'codeload.github.com',
  '*.githubusercontent.com',
  'gitlab.com',
  'bitbucket.org',
]);

/**
 * A host name as the proxy compares it: lower case, IDNA (punycode) for non-ASCII
 * labels, no trailing dot, IPv4 in dotted-quad form (`127.1` and `0x7f.0.0.1` are
 * `127.0.0.1`, as resolvers read them), IPv6 without brackets. Undefined when it is
 * not a host name at all (a path, a user part, an empty label).
 */
export function normalizeHost(raw: string): string | undefined {
  let host = raw.trim();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (net.isIPv6(host)) {
    // The URL parser writes IPv6 in its one canonical form.
    return new URL(`http://[${host}]/`).hostname.slice(1, -1);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || /[\s/\\@:?#[\]%]/.test(host)) return undefined;
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
  if (parsed === '' || parsed.startsWith('.') || parsed.includes('..')) return undefined;
  return parsed;
}

export function isIpLiteral(host: string): boolean {
  return net.isIP(host) !== 0;
}

/** Whether an allowlist entry is well formed: a host name, an IP literal, or `*.` and a host name. */
export function allowEntryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string' || entry.trim() === '') return 'is not a host name';
  const wildcard = entry.startsWith('*.');
  const rest = wildcard ? entry.slice(2) : entry;
  if (rest.includes('*')) return 'has a * other than a leading `*.`';
  const host = normalizeHost(rest);
  if (host === undefined) return 'is not a host name (no scheme, port, path or user part)';
  if (wildcard && isIpLiteral(host)) return 'puts `*.` before an IP address';
  if (wildcard && !host.includes('.')) return 'would match every name under a top-level domain';
  return undefined;
}

/** The entry as it is matched: normalized, `*.` kept. Assumes allowEntryProblem() found nothing. */
export function normalizeEntry(entry: string): string {
  return entry.startsWith('*.') ? `*.${normalizeHost(entry.slice(2))}` : normalizeHost(entry)!;
}

/**
 * Whether a normalized host is on the list: an exact entry, or an entry `*.example.com`
 * for any name below example.com (not example.com itself). An IP address matches only
 * itself written out, so an allowed name never lets an address through.
 */
export function isAllowed(host: string, allow: readonly string[]): boolean {
  for (const entry of allow) {
    if (entry === host) return true;
    if (entry.startsWith('*.') && !isIpLiteral(host) && host.endsWith(entry.slice(1))) return true;
  }
  return false;
}
