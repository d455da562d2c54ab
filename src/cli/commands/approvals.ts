import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { auditTargetOf } from '../audit-target.js';
import { asUserErrors, UserError } from '../errors.js';
import type { AnyApprovalStore, Approval, ApprovalState } from '../../approvals/index.js';

interface StoreFlags {
  audit?: string;
  db?: string;
  policy?: string;
}

interface AnswerFlags extends StoreFlags {
  note?: string;
  as?: string;
  session?: boolean;
  json?: boolean;
}

const STATES = ['pending', 'approved', 'denied', 'expired'];

/**
 * `hookwise approvals`: list, show and answer the pending decisions stored beside
 * the audit trail (docs/approvals.md). The first answer wins, whichever channel
 * gives it; a later one prints who answered first and exits 1.
 */
export function defineApprovals(program: Command, setExit: SetExit): void {
  const approvals = program
    .command('approvals')
    .description(
      'List, show, approve and deny the decisions hooks asked a person for (stored beside the audit trail: $HOOKWISE_AUDIT_DB, else .hookwise/audit.db; --audit postgres://... for PostgreSQL).',
    );

  withStore(approvals.command('list', { isDefault: true }).description('List pending approvals, newest first (the default).'))
    .option('--all', 'every approval, answered and expired too')
    .option('--state <state>', 'only approvals in this state: pending, approved, denied or expired')
    .option('--tenant <name>', 'only this tenant')
    .option('--session-id <id>', 'only this session')
    .option('--limit <n>', 'only the N newest')
    .option('--json', 'print the approvals as a JSON array')
    .action(
      async (
        flags: StoreFlags & { all?: boolean; state?: string; tenant?: string; sessionId?: string; limit?: string; json?: boolean },
      ) => {
        if (flags.all && flags.state !== undefined) throw new UserError('--all and --state contradict each other: give one of them');
        if (flags.state !== undefined && !STATES.includes(flags.state))
          throw new UserError(`--state must be pending, approved, denied or expired, got ${JSON.stringify(flags.state)}`);
        if (flags.limit !== undefined && !/^[1-9]\d*$/.test(flags.limit))
          throw new UserError(`--limit must be a whole number from 1, got ${JSON.stringify(flags.limit)}`);
        const state = flags.all ? undefined : ((flags.state ?? 'pending') as ApprovalState);
        const found = await usingStore(flags, (store) =>
          store.list({
            state,
            tenant: flags.tenant,
            sessionId: flags.sessionId,
            limit: flags.limit === undefined ? undefined : Number(flags.limit),
          }),
        );
        if (flags.json) process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
        else {
          const pc = (await import('picocolors')).default;
          const { formatApprovalTable } = await import('../../approvals/format.js');
          const lines = found.length > 0 ? formatApprovalTable(found, pc) : [];
          lines.push(pc.dim(`${found.length} ${state ?? ''}${state ? ' ' : ''}approval${found.length === 1 ? '' : 's'}`));
          process.stdout.write(`${lines.join('\n')}\n`);
        }
        // Rows changed outside hookwise: listed as what is signed, and said, with exit 1 (docs/approvals.md#the-chain-decides).
        const tampered = found.filter((a) => a.disagreement !== undefined);
        for (const a of tampered) process.stderr.write(`hookwise: ${a.disagreement}\n`);
        setExit(tampered.length > 0 ? 1 : 0);
      },
    );

  withStore(approvals.command('show <id>').description('Show one approval: what was asked, by which hook and why, and who answered.'))
    .option('--json', 'print the approval as JSON')
    .action(async (id: string, flags: StoreFlags & { json?: boolean }) => {
      const approval = await usingStore(flags, (store) => store.get(id));
      if (!approval) throw new UserError(`no approval ${JSON.stringify(id)} (see \`hookwise approvals list --all\`)`);
      if (flags.json) process.stdout.write(`${JSON.stringify(approval, null, 2)}\n`);
      else {
        const { describeApproval } = await import('../../approvals/format.js');
        process.stdout.write(`${describeApproval(approval).join('\n')}\n`);
      }
      setExit(0);
    });

  for (const decision of ['approve', 'deny'] as const) {
    const command = withStore(
      approvals
        .command(`${decision} <id>`)
        .description(
          decision === 'approve' ? 'Approve the call: the waiting run goes on with it.' : 'Deny the call: the waiting run is told no.',
        ),
    )
      .option('--note <text>', 'why, kept with the answer and in the audit trail')
      .option('--as <name>', 'who answers (default: your user name); the policy decides who may approve what');
    if (decision === 'approve') command.option('--session', 'approve the same tool and input for the rest of the session too');
    command.option('--json', 'print the result as JSON').action(async (id: string, flags: AnswerFlags) => {
      const by = flags.as ?? (await userName());
      const result = await usingStore(flags, (store) =>
        store.answer(id, { decision, by, note: flags.note, scope: flags.session ? 'session' : 'once' }),
      );
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.ok) process.stdout.write(`${answeredLine(result.approval)}\n`);
      else process.stderr.write(`hookwise: ${result.message}\n`);
      setExit(result.ok ? 0 : 1);
    });
  }
}

function withStore(command: Command): Command {
  return command
    .option('--audit <file|url>', 'the audit store the approvals live beside: an SQLite file or a postgres:// URL (?schema=NAME)')
    .option('--db <path>', 'the same as --audit')
    .option('--policy <file>', 'an approvals policy (JSON or YAML): who may approve what, and which tools may be approved for a session');
}

/** Opens the store, runs `use`, closes it; the store's user-facing errors become one line. */
async function usingStore<T>(flags: StoreFlags, use: (store: AnyApprovalStore) => Promise<T>): Promise<T> {
  const { openApprovals, loadApprovalPolicyFile } = await import('../../approvals/index.js');
  const target = await auditTargetOf(flags);
  const { isPostgresUrl, AuditDatabaseMissingError } = await import('../../audit/index.js');
  const { existsSync } = await import('node:fs');
  // Answering or listing never creates a database: a wrong path says so.
  if (!isPostgresUrl(target) && !existsSync(target)) throw new UserError(new AuditDatabaseMissingError(target).message);
  const policy = flags.policy === undefined ? undefined : await userErrors(() => loadApprovalPolicyFile(flags.policy!));
  const store = await userErrors(() => openApprovals(target, { policy }));
  try {
    return await userErrors(() => use(store));
  } finally {
    await store.close();
  }
}

function answeredLine(a: Approval): string {
  const what = a.tool === null ? a.event : `${a.tool}${a.input && typeof a.input.command === 'string' ? `: ${a.input.command}` : ''}`;
  const reach = a.scope === 'session' ? ', for the rest of the session' : '';
  return `${a.state} ${a.id} (${what}) as ${a.answeredBy}${reach}`;
}

async function userName(): Promise<string> {
  const os = await import('node:os');
  try {
    return os.userInfo().username;
  } catch {
    const fromEnv = process.env.USER ?? process.env.USERNAME;
    if (fromEnv) return fromEnv;
    throw new UserError('cannot tell who you are: pass --as NAME');
  }
}

/** Errors the user has to fix (locked, read-only or unreachable stores, bad keys or policies, a closed trail): one line, exit 1. */
const USER_ERRORS = new Set([
  'AuditDatabaseFormatError',
  'AuditDatabaseLockedError',
  'AuditDatabaseReadOnlyError',
  'AuditConnectionError',
  'AuditKeyError',
  'AuditRollbackError',
  'ApprovalPolicyError',
  'ApprovalChainError',
  'ApprovalInputError',
  'ApprovalStoreOptionError',
  'ApprovalsBusyError',
  'AuditQueryError',
  'AuditStoreOptionError',
  'RangeError',
]);

const userErrors = <T>(run: () => Promise<T>): Promise<T> => asUserErrors(USER_ERRORS, run);
