import type { Layout } from './layout.js';
import type { ResolvedSandbox } from './settings.js';

/**
 * The macOS profile for `sandbox-exec -p` (Seatbelt), from the same layout as
 * bubblewrap's mounts. Later rules win in SBPL, so the broad allows come first and
 * the denials for hidden, read-only and secret paths after them. Written and unit
 * tested for its text; these machines cannot run it (docs/security.md#the-os-sandbox).
 */
export function seatbeltProfile(layout: Layout, settings: ResolvedSandbox): string {
  const q = (p: string) => JSON.stringify(p);
  const subpaths = (list: string[]) => list.map((p) => `(subpath ${q(p)})`).join(' ');
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork process-info* sysctl-read mach-lookup ipc-posix-shm pseudo-tty iokit-open)',
    '(allow signal (target same-sandbox))',
    '(allow file-read*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
  ];
  const hidden = layout.hidden.map((p) => (p === '/tmp' ? '/private/tmp' : p === '/var/tmp' ? '/private/var/tmp' : p));
  if (hidden.length > 0) lines.push(`(deny file-read* ${subpaths(hidden)})`);
  const shown = [...layout.readable, ...layout.writable];
  if (shown.length > 0) lines.push(`(allow file-read* ${subpaths(shown)})`);
  if (layout.writable.length > 0) lines.push(`(allow file-write* ${subpaths(layout.writable)})`);
  if (layout.readOnly.length > 0) lines.push(`(deny file-write* ${subpaths(layout.readOnly)})`);
  const sweep = layout.sweep.map((name) => `(subpath ${q(`${layout.workspace}/${name}`)})`).join(' ');
  if (sweep) lines.push(`(deny file-write* ${sweep})`);
  const masked = [...layout.maskedFiles.map((p) => `(literal ${q(p)})`), ...layout.maskedDirs.map((p) => `(subpath ${q(p)})`)];
  if (masked.length > 0) lines.push(`(deny file-read* file-write* ${masked.join(' ')})`);
  if (settings.network === 'on') lines.push('(allow network*)');
  else lines.push('(allow network* (local unix-socket))');
  return lines.join('\n');
}
