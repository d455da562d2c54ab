/** Reading SQL (and mongo shell, redis) text for statements that destroy data. */

/** The statements of a script, comments and string contents removed. */
function statements(sql: string): string[] {
  const bare = sql.replace(/--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\//g, ' ').replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, "''");
  return bare
    .split(';')
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** The first destructive statement, described; undefined when there is none. */
export function destructiveSql(sql: string): { rule: string; what: string } | undefined {
  for (const st of statements(sql)) {
    const s = st.toUpperCase();
    let m =
      /^DROP\s+(TABLE|DATABASE|SCHEMA|VIEW|MATERIALIZED VIEW|INDEX|KEYSPACE|COLLECTION|USER|ROLE|SEQUENCE|TYPE|FUNCTION|OWNED|EXTENSION)\b/.exec(
        s,
      );
    if (m) return { rule: 'databases/drop', what: `\`${short(st)}\`, which drops a ${m[1]!.toLowerCase()} and everything in it` };
    if (/^TRUNCATE\b/.test(s)) return { rule: 'databases/truncate', what: `\`${short(st)}\`, which deletes every row` };
    if (/^ALTER\s+TABLE\b.*\bDROP\s+(COLUMN|CONSTRAINT|PARTITION)?\b/.test(s) && !/\bDROP\s+(DEFAULT|NOT NULL)\b/.test(s))
      return { rule: 'databases/drop', what: `\`${short(st)}\`, which drops part of a table with its data` };
    m = /^(WITH\b.*?\)\s*)?DELETE\s+(FROM\s+)?\S+/.exec(s);
    if (m && !/\bWHERE\b/.test(s))
      return { rule: 'databases/delete-all', what: `\`${short(st)}\`, which has no WHERE, so it deletes every row` };
    if (/^(WITH\b.*?\)\s*)?UPDATE\s+\S+.*\bSET\b/.test(s) && !/\bWHERE\b/.test(s))
      return { rule: 'databases/update-all', what: `\`${short(st)}\`, which has no WHERE, so it changes every row` };
    if (/^(FLUSHALL|FLUSHDB)\b/.test(s)) return { rule: 'databases/redis-flush', what: `\`${short(st)}\`, which deletes every key` };
  }
  return undefined;
}

/** Mongo shell code that drops or empties a collection or database. */
export function destructiveMongo(code: string): { rule: string; what: string } | undefined {
  const m =
    /\b(dropDatabase|drop|dropIndexes|deleteMany|remove)\s*\(\s*(\{\s*\})?\s*\)/.exec(code) ??
    /\.(deleteMany|remove)\s*\(\s*\{\s*\}/.exec(code);
  if (!m) return undefined;
  const name = m[1]!;
  if ((name === 'deleteMany' || name === 'remove') && !/\(\s*\{\s*\}/.test(m[0])) return undefined;
  return {
    rule: name.startsWith('drop') ? 'databases/drop' : 'databases/delete-all',
    what: `\`${m[0]}\`, which ${name.startsWith('drop') ? 'drops it with its data' : 'deletes every document'}`,
  };
}

function short(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
