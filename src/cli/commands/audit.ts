import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { auditTargetOf } from '../audit-target.js';
import { asUserErrors, UserError } from '../errors.js';
import { missingPackage } from '../../core/missing-package.js';

interface TargetFlags {
  db?: string;
  audit?: string;
}

interface FilterFlags extends TargetFlags {
  session?: string;
  kind?: string;
  event?: string;
  decision?: string;
  tool?: string;
  since?: string;
  until?: string;
  limit?: string;
}

/** `hookwise audit` (list), `export` (JSONL), `verify` (chain, head, anchor) and `coverage` (tool runs without an allowing PreToolUse). */
export function defineAudit(program: Command, setExit: SetExit): void {
  const audit = program
    .command('audit')
    .description(
      'List, export, verify and check the coverage of the audit trail (default: $HOOKWISE_AUDIT_DB, else .hookwise/audit.db; --audit postgres://... for PostgreSQL).',
    );

  withFilters(audit.command('list', { isDefault: true }).description('List audit records as a table (the default).'))
    .option('--json', 'print the records as a JSON array')
    .action(async (flags: FilterFlags & { json?: boolean }) => {
      const pc = (await import('picocolors')).default;
      const { queryAuditTrail, formatAuditTable } = await auditModule();
      const rows = await userErrors(async () => queryAuditTrail(await auditTargetOf(flags), await filtersOf(flags)));
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
      const { exportAuditTrail, isPostgresUrl, AuditDatabaseMissingError } = await auditModule();
      const { existsSync, openSync, closeSync } = await import('node:fs');
      const { writeAll } = await import('../envelope.js');
      const target = await auditTargetOf(flags);
      const filters = await filtersOf(flags);
      // Checked before --out is created, so a wrong path leaves no empty file behind.
      if (!isPostgresUrl(target) && !existsSync(target)) throw new UserError(new AuditDatabaseMissingError(target).message);
      let fd = 1;
      if (flags.out) {
        try {
          fd = openSync(flags.out, 'w');
        } catch (error) {
          throw new UserError(`cannot write --out ${flags.out}: ${(error as Error).message}`);
        }
      }
      let pending = '';
      let buffered = 0;
      let written = 0;
      // All of each chunk, however little a slow pipe takes per write; a reader that
      // goes away (EPIPE) or a full disk ends the export with an error, never exit 0.
      const flush = () => {
        try {
          writeAll(fd, pending);
        } catch (error) {
          const to = flags.out ?? 'stdout';
          throw new UserError(
            `audit export: cannot write to ${to} after ${written} records were written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the export is incomplete`,
          );
        }
        pending = '';
        written += buffered;
        buffered = 0;
      };
      const write = (chunk: string) => {
        pending += chunk;
        buffered++;
        if (pending.length >= 1 << 16) flush();
      };
      try {
        await userErrors(async () => exportAuditTrail(target, filters, write));
        if (pending) flush();
      } finally {
        if (flags.out) closeSync(fd);
      }
      setExit(0);
    });

  withTarget(audit.command('verify'))
    .description(
      'Check the hash chain, the signed head and the anchor file: exit 0 if intact, else print each edited, deleted, reordered or rolled-back row and exit 1.',
    )
    .option('--key-file <path>', 'the audit key (default: $HOOKWISE_AUDIT_KEY, else audit.key beside the database)')
    .option('--no-anchor', 'do not compare the end of the chain with the <db>.head anchor file')
    .option('--json', 'print the result as JSON')
    .action(async (flags: TargetFlags & { json?: boolean; keyFile?: string; anchor: boolean }) => {
      const pc = (await import('picocolors')).default;
      const { verifyAuditTrail } = await auditModule();
      const result = await userErrors(async () =>
        verifyAuditTrail(await auditTargetOf(flags), { keyFile: flags.keyFile, anchor: flags.anchor }),
      );
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.ok) {
        const streams = result.streams > 1 ? `, ${result.streams} streams` : '';
        const unsigned = result.signed ? '' : ' (heads not signed: set HOOKWISE_AUDIT_KEY to detect a rewritten head)';
        const noCopy = result.headCopy === 'missing' && result.rows > 0 ? ` (${noCopyNote(result.path)})` : '';
        process.stdout.write(
          `${pc.green('ok')}: ${result.rows} row${result.rows === 1 ? '' : 's'}${streams}, chain intact (${result.path}, head ${result.headHash.slice(0, 16)})${unsigned}${noCopy}\n`,
        );
      } else {
        for (const p of result.problems) {
          const stream = p.stream === undefined ? '' : `stream ${JSON.stringify(p.stream)} `;
          process.stdout.write(`${pc.red(p.kind)} ${stream}seq ${p.seq}: ${p.message}\n`);
        }
        process.stdout.write(
          `${pc.red('FAILED')}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${result.rows} rows (${result.path})\n`,
        );
      }
      setExit(result.ok ? 0 : 1);
    });

  withTarget(audit.command('reanchor'))
    .description(
      'For a person, after checking the trail: record in the chain who re-anchors it and why (and what the anchors said), then write a fresh anchor and copy of the head. A store never does this by itself.',
    )
    .requiredOption('--reason <text>', 'why (recorded in the chain)')
    .option('--as <name>', 'who re-anchors (default: the OS user)')
    .action(async (flags: TargetFlags & { reason: string; as?: string }) => {
      const target = await auditTargetOf(flags);
      if (flags.reason.trim() === '') throw new UserError('--reason must say why the trail is re-anchored');
      const { userInfo } = await import('node:os');
      const by = flags.as ?? userInfo().username;
      const reanchor = { by, reason: flags.reason };
      const { isPostgresUrl } = await import('../../audit/postgres-url.js');
      let shown = target;
      let at: string;
      if (isPostgresUrl(target)) {
        const { PostgresAuditStore } = await import('../../audit/postgres-store.js').catch((error: unknown) => {
          throw missingPackage(error, 'pg', 'A PostgreSQL audit trail (a postgres:// URL)');
        });
        const store = await userErrors(async () => PostgresAuditStore.open({ url: target, reanchor }));
        shown = store.path;
        await store.close();
        at = 'its present heads';
      } else {
        const { AuditStore } = await import('../../audit/store.js');
        const store = await userErrors(async () => new AuditStore({ path: target, reanchor }));
        const tip = store.lastCommitted;
        store.closeSync();
        at = `seq ${tip?.seq ?? 0}`;
      }
      process.stdout.write(`re-anchored ${shown} at ${at} as ${by}: ${flags.reason}\n`);
      setExit(0);
    });

  withTarget(audit.command('coverage'))
    .description('List tool executions without an allowing PreToolUse outcome: exit 1 if there are any, 0 otherwise.')
    .option('--json', 'print the result as JSON')
    .action(async (flags: TargetFlags & { json?: boolean }) => {
      const pc = (await import('picocolors')).default;
      const { auditCoverage } = await auditModule();
      const result = await userErrors(async () => auditCoverage(await auditTargetOf(flags)));
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        for (const u of result.uncovered) {
          const stream = u.stream === undefined ? '' : `stream ${JSON.stringify(u.stream)} `;
          process.stdout.write(`${pc.red('uncovered')} ${stream}seq ${u.seq} (${u.tool ?? '-'}, session ${u.sessionId}): ${u.why}\n`);
        }
        const summary = `${result.covered} of ${result.executions} tool execution${result.executions === 1 ? '' : 's'} allowed by a PreToolUse outcome (${result.path})`;
        process.stdout.write(result.uncovered.length === 0 ? `${pc.green('ok')}: ${summary}\n` : `${pc.red('FAILED')}: ${summary}\n`);
      }
      setExit(result.uncovered.length === 0 ? 0 : 1);
    });
}

/** What a verify without hookwise's own copy of the head (another machine or user) could not check. */
function noCopyNote(shown: string): string {
  return /^postgres(ql)?:/i.test(shown)
    ? "no copy of this trail in this user's state folder (another machine or user): checked against its chains only, so older signed heads put back would go unseen here"
    : "no copy of its head in this user's state folder (another machine or user): checked against its anchor only";
}

function withTarget(command: Command): Command {
  return command
    .option('--audit <file|url>', 'the audit store: an SQLite file or a postgres:// URL (?schema=NAME picks the schema)')
    .option('--db <path>', 'the same as --audit');
}

function withFilters(command: Command): Command {
  return withTarget(command)
    .option('--session <id>', 'only this session')
    .option('--kind <kind>', 'only this kind of record: outcome, tool, or another kind')
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

async function filtersOf(flags: FilterFlags) {
  const { canonicalEvent } = await import('../../compat/event-aliases.js');
  if (flags.kind !== undefined && !/^[a-z][a-z0-9_.-]{0,31}$/.test(flags.kind)) {
    throw new UserError(`--kind must be a record kind such as outcome or tool, got ${JSON.stringify(flags.kind)}`);
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
    kind: flags.kind,
    event: flags.event === undefined ? undefined : canonicalEvent(flags.event),
    decision: flags.decision,
    tool: flags.tool,
    since: flags.since,
    until: flags.until,
    limit,
  };
}

/** Errors the user has to fix (missing, foreign, locked, read-only or unreachable stores; bad keys and filters): one line, exit 1. */
const USER_ERRORS = new Set([
  'AuditDatabaseMissingError',
  'AuditDatabaseFormatError',
  'AuditDatabaseLockedError',
  'AuditDatabaseReadOnlyError',
  'AuditConnectionError',
  'AuditKeyError',
  'AuditQueryError',
  'AuditStoreOptionError',
  'RangeError',
]);

const userErrors = <T>(run: () => Promise<T>): Promise<T> => asUserErrors(USER_ERRORS, run);
