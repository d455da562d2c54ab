import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';

interface FilterFlags {
  db?: string;
  session?: string;
  kind?: string;
  event?: string;
  decision?: string;
  tool?: string;
  since?: string;
  until?: string;
  limit?: string;
}

/** `hookwise audit` (list), `audit export` (JSONL) and `audit verify` (the hash chain). */
export function defineAudit(program: Command, setExit: SetExit): void {
  const audit = program
    .command('audit')
    .description('List, export and verify the audit trail (default database: $HOOKWISE_AUDIT_DB, else .hookwise/audit.db).');

  withFilters(audit.command('list', { isDefault: true }).description('List audit records as a table (the default).'))
    .option('--json', 'print the records as a JSON array')
    .action(async (flags: FilterFlags & { json?: boolean }) => {
      const pc = (await import('picocolors')).default;
      const { queryAudit, formatAuditTable } = await auditModule();
      const rows = await userErrors(async () => queryAudit(await dbPath(flags), await filtersOf(flags)));
      if (flags.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      else {
        const lines = rows.length > 0 ? formatAuditTable(rows, pc) : [];
        lines.push(pc.dim(`${rows.length} record${rows.length === 1 ? '' : 's'}`));
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      setExit(0);
    });

  withFilters(audit.command('export').description('Write audit records as JSON Lines, oldest first.'))
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (flags: FilterFlags & { out?: string }) => {
      const { exportAuditJsonl, AuditDatabaseMissingError } = await auditModule();
      const { existsSync, openSync, writeSync, closeSync } = await import('node:fs');
      const path = await dbPath(flags);
      const filters = await filtersOf(flags);
      // Checked before --out is created, so a wrong path leaves no empty file behind.
      if (!existsSync(path)) throw new UserError(new AuditDatabaseMissingError(path).message);
      let fd = 1;
      if (flags.out) {
        try {
          fd = openSync(flags.out, 'w');
        } catch (error) {
          throw new UserError(`cannot write --out ${flags.out}: ${(error as Error).message}`);
        }
      }
      let pending = '';
      const write = (chunk: string) => {
        pending += chunk;
        if (pending.length >= 1 << 16) {
          writeSync(fd, pending);
          pending = '';
        }
      };
      try {
        await userErrors(async () => exportAuditJsonl(path, filters, write));
        if (pending) writeSync(fd, pending);
      } finally {
        if (flags.out) closeSync(fd);
      }
      setExit(0);
    });

  audit
    .command('verify')
    .description('Check the hash chain: exit 0 if intact, else print each edited, deleted or reordered row and exit 1.')
    .option('--db <path>', 'the audit database')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { db?: string; json?: boolean }) => {
      const pc = (await import('picocolors')).default;
      const { verifyAudit } = await auditModule();
      const result = await userErrors(async () => verifyAudit(await dbPath(flags)));
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.ok) {
        process.stdout.write(`${pc.green('ok')}: ${result.rows} row${result.rows === 1 ? '' : 's'}, chain intact (${result.path}, head ${result.headHash.slice(0, 16)})\n`);
      } else {
        for (const p of result.problems) process.stdout.write(`${pc.red(p.kind)} seq ${p.seq}: ${p.message}\n`);
        process.stdout.write(`${pc.red('FAILED')}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${result.rows} rows (${result.path})\n`);
      }
      setExit(result.ok ? 0 : 1);
    });
}

function withFilters(command: Command): Command {
  return command
    .option('--db <path>', 'the audit database')
    .option('--session <id>', 'only this session')
    .option('--kind <kind>', 'only outcome or tool records')
    .option('--event <event>', 'only this event (aliases accepted)')
    .option('--decision <decision>', 'only this decision: allow, deny, ask, defer, or none')
    .option('--tool <name>', 'only this tool')
    .option('--since <time>', 'only records at or after this ISO 8601 time')
    .option('--until <time>', 'only records at or before this ISO 8601 time')
    .option('--limit <n>', 'only the N most recent matching records');
}

function auditModule() {
  return import('../../audit/index.js');
}

/** `--db`, else the default every writer uses: `$HOOKWISE_AUDIT_DB`, else `.hookwise/audit.db` here. */
async function dbPath(flags: { db?: string }): Promise<string> {
  const path = await import('node:path');
  if (flags.db) return path.resolve(flags.db);
  const { defaultAuditPath } = await import('../../audit/paths.js');
  return defaultAuditPath(process.cwd());
}

async function filtersOf(flags: FilterFlags) {
  const { canonicalEvent } = await import('../../core/events.js');
  if (flags.kind !== undefined && flags.kind !== 'outcome' && flags.kind !== 'tool') {
    throw new UserError(`--kind must be outcome or tool, got ${JSON.stringify(flags.kind)}`);
  }
  if (flags.decision !== undefined && !['allow', 'deny', 'ask', 'defer', 'none'].includes(flags.decision)) {
    throw new UserError(`--decision must be allow, deny, ask, defer or none, got ${JSON.stringify(flags.decision)}`);
  }
  for (const field of ['since', 'until'] as const) {
    const value = flags[field];
    if (value !== undefined && Number.isNaN(Date.parse(value))) {
      throw new UserError(`--${field} must be an ISO 8601 time such as 2026-01-31T12:00:00Z, got ${JSON.stringify(value)}`);
    }
  }
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    if (!/^\d+$/.test(flags.limit)) throw new UserError(`--limit must be a whole number, got ${JSON.stringify(flags.limit)}`);
    limit = Number(flags.limit);
  }
  return {
    sessionId: flags.session,
    kind: flags.kind as 'outcome' | 'tool' | undefined,
    event: flags.event === undefined ? undefined : canonicalEvent(flags.event),
    decision: flags.decision,
    tool: flags.tool,
    since: flags.since,
    until: flags.until,
    limit,
  };
}

/** Missing or foreign databases and bad filters are the user's to fix: one line, exit 1. */
async function userErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (['AuditDatabaseMissingError', 'AuditDatabaseFormatError', 'RangeError'].includes(name)) throw new UserError((error as Error).message);
    throw error;
  }
}
