function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `url` is covered by one allowlist entry: a prefix (`*` matches any run
 * of characters). A prefix that ends inside the host (`https://example.com`) does
 * not cover `https://example.com.evil.net`: the URL must continue with `/`, `?`,
 * `#`, `:` or end there.
 */
export function urlAllowed(url: string, allowlist: readonly string[]): boolean {
  return allowlist.some((entry) => {
    const pattern = new RegExp(`^${entry.split('*').map(escapeRegex).join('.*')}`);
    const match = pattern.exec(url);
    if (!match) return false;
    const rest = url.slice(match[0].length);
    const afterScheme = entry.replace(/^[a-z]+:\/\//i, '');
    const prefixEndsInHost = !afterScheme.includes('/');
    return !prefixEndsInHost || entry.endsWith('*') || rest === '' || /^[/?#:]/.test(rest);
  });
}
