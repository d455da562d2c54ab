import type { HookTrust } from './trust.js';

/**
 * Hook trust written into Codex's `config.toml`, as Codex writes it itself: one table per
 * hook, `[hooks.state."<key>"]` with `trusted_hash = "sha256:…"`. The rest of the file is
 * kept line for line (comments too). hookwise reads TOML only as far as this needs: table
 * headers and the keys of each line. A file that holds `hooks.state` in another form (an
 * inline table, dotted keys), where a table added would define it twice and stop Codex from
 * starting, is left alone: the answer says why, and init tells the person how to trust.
 */
export type TrustEdit = { text: string; changed: boolean } | { unsupported: string };

export function withHookTrust(text: string, trust: readonly HookTrust[]): TrustEdit {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const scanned = scan(lines);
  if ('unsupported' in scanned) return scanned;
  let changed = false;
  const appended: string[] = [];
  for (const { key, hash } of trust) {
    const wanted = `trusted_hash = ${JSON.stringify(hash)}`;
    const table = scanned.tables.find((t) => t.path.length === 3 && t.path[0] === 'hooks' && t.path[1] === 'state' && t.path[2] === key);
    if (!table) {
      appended.push('', `[hooks.state.${JSON.stringify(key)}]`, wanted);
      changed = true;
      continue;
    }
    const at = table.keys.find((k) => k.path.length === 1 && k.path[0] === 'trusted_hash');
    if (at && lines[at.line] === wanted) continue;
    if (at) lines[at.line] = wanted;
    else lines[table.header] = `${lines[table.header]}\n${wanted}`;
    changed = true;
  }
  // A new file starts with its first table, not a blank line.
  const body = [...lines, ...(lines.length === 0 ? appended.slice(1) : appended)].join('\n');
  return { text: body === '' ? '' : `${body}\n`, changed };
}

/** Is each hook's trust recorded as that hash? The keys whose trust is missing or stale. */
export function untrustedKeys(text: string, trust: readonly HookTrust[]): string[] | { unsupported: string } {
  const lines = text === '' ? [] : text.split(/\r?\n/);
  const scanned = scan(lines);
  if ('unsupported' in scanned) return scanned;
  return trust
    .filter(({ key, hash }) => {
      const table = scanned.tables.find((t) => t.path.length === 3 && t.path[0] === 'hooks' && t.path[1] === 'state' && t.path[2] === key);
      const at = table?.keys.find((k) => k.path.length === 1 && k.path[0] === 'trusted_hash');
      return !at || lines[at.line]!.replace(/\s+/g, ' ').trim() !== `trusted_hash = ${JSON.stringify(hash)}`;
    })
    .map(({ key }) => key);
}

interface Table {
  path: string[];
  header: number;
  keys: { path: string[]; line: number }[];
}

/** The tables of the file and the keys of each, or why hookwise cannot safely edit it. */
function scan(lines: string[]): { tables: Table[] } | { unsupported: string } {
  const root: Table = { path: [], header: -1, keys: [] };
  const tables: Table[] = [];
  let current = root;
  let inString: string | undefined;
  for (const [index, line] of lines.entries()) {
    // Inside a multi-line string nothing is a header or a key.
    if (inString) {
      if (count(line, inString) % 2 === 1) inString = undefined;
      continue;
    }
    const header = /^\s*\[(?!\[)(.*)\]\s*(#.*)?$/.exec(line);
    if (header) {
      const path = dottedKey(header[1]!);
      if (!path) return { unsupported: `line ${index + 1}: a table header hookwise cannot read` };
      current = { path, header: index, keys: [] };
      tables.push(current);
      continue;
    }
    if (/^\s*\[\[/.test(line)) {
      current = { path: ['[[array]]'], header: index, keys: [] };
      continue;
    }
    const assignment = /^\s*([^=#]+?)\s*=/.exec(line);
    if (assignment) {
      const path = dottedKey(assignment[1]!);
      if (path) {
        current.keys.push({ path, line: index });
        const full = [...current.path, ...path];
        // hooks.state (or hooks itself) given as a value, or by dotted keys: not the tables Codex writes.
        if (full[0] === 'hooks' && (full.length === 1 || (full[1] === 'state' && current.path.length < 3)))
          return { unsupported: `line ${index + 1} sets ${full.join('.')} in a form hookwise does not edit` };
      }
      for (const quote of ['"""', "'''"]) if (count(line, quote) % 2 === 1) inString = quote;
    }
  }
  return { tables };
}

function count(line: string, quote: string): number {
  return line.split(quote).length - 1;
}

/** A TOML dotted key (bare, "basic" and 'literal' parts), or undefined when it is not one. */
function dottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  let rest = text.trim();
  while (true) {
    let match = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (match) {
      try {
        parts.push(JSON.parse(`"${match[1]}"`) as string);
      } catch {
        return undefined;
      }
    } else if ((match = /^'([^']*)'/.exec(rest))) parts.push(match[1]!);
    else if ((match = /^[A-Za-z0-9_-]+/.exec(rest))) parts.push(match[0]);
    else return undefined;
    rest = rest.slice(match[0].length).trim();
    if (rest === '') return parts;
    if (!rest.startsWith('.')) return undefined;
    rest = rest.slice(1).trim();
  }
}
