import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { PolicyTestError } from '../policy-test/errors.js';
import { auditCalls, type AuditSelection } from './audit-source.js';
import { transcriptCalls } from './transcript.js';
import type { SourceBatch } from './types.js';

/**
 * Every named source, in order, as one stream of calls: `postgres://` URLs and SQLite
 * files are audit trails, `.jsonl` files Claude Code transcripts, folders the
 * transcripts in them. Each is checked before anything is replayed.
 */
export async function sourceItems(sources: string[], selection: AuditSelection): Promise<AsyncIterable<SourceBatch>> {
  const { isPostgresUrl } = await import('../audit/postgres-url.js');
  const streams: Array<() => AsyncIterable<SourceBatch>> = [];
  for (const given of sources) {
    if (isPostgresUrl(given)) {
      streams.push(() => auditCalls(given, selection));
      continue;
    }
    const file = path.resolve(given);
    if (!existsSync(file))
      throw new PolicyTestError(
        file,
        'no such file or folder; name a Claude Code transcript (.jsonl), a folder of them, or an audit database',
      );
    if (statSync(file).isDirectory()) {
      const found = readdirSync(file)
        .filter((f) => f.endsWith('.jsonl'))
        .sort();
      if (found.length === 0) throw new PolicyTestError(file, 'holds no .jsonl session transcripts');
      for (const f of found) streams.push(() => transcriptCalls(path.join(file, f)));
    } else if (isSqlite(file)) streams.push(() => auditCalls(file, selection));
    else streams.push(() => transcriptCalls(file));
  }
  return (async function* () {
    for (const open of streams) yield* open();
  })();
}

function isSqlite(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1') === 'SQLite format 3\0';
  } finally {
    closeSync(fd);
  }
}
