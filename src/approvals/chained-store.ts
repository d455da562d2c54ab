import { canonicalJson } from '../audit/canonical-json.js';
import { ApprovalChainError, ApprovalNotFoundError } from './errors.js';
import { pause } from './pause.js';
import { checkAnswer, policyOf, requestDefaults, type ApprovalPolicySource } from './policy.js';
import {
  CHAINED_ANSWER,
  CHAINED_REQUEST,
  DEFAULT_TENANT,
  answerFields,
  approvalAuditRecord,
  expiryFields,
  newApprovalRow,
  toApproval,
  validateAnswer,
  type ApprovalRow,
} from './record.js';
import type { ApprovalChain, ApprovalTable } from './table.js';
import type {
  AnswerResult,
  Approval,
  ApprovalAnswer,
  ApprovalFilter,
  ApprovalRequest,
  ApprovalState,
  ApprovalStore,
  ApprovalWaitOptions,
} from './types.js';

export interface ApprovalStoreOptions {
  /** Who may approve what, default expiry, standing permissions (./policy.ts). Default: no rules. */
  policy?: ApprovalPolicySource;
  /**
   * How long a request or answer may stay out of the audit chain before another
   * process presumes its writer crashed and appends it. Default 5000 ms.
   */
  reconcileAfterMs?: number;
}

const STATES: ReadonlySet<ApprovalState> = new Set(['pending', 'approved', 'denied', 'expired']);

/**
 * The store's logic, shared by SQLite and PostgreSQL (./sqlite-store.ts,
 * ./postgres-store.ts supply the table and the chain).
 *
 * Each step writes the table first and then the chain: the row is the truth a
 * waiting run reads, and the first answer wins by a conditional UPDATE on it. A
 * crash between the two leaves the row's `chained` level behind its state, and
 * the reconcile (on open, on every `list`, and in `wait`) appends the missing
 * record, after checking the chain does not hold it already.
 */
export class ChainedApprovalStore implements ApprovalStore {
  private readonly policy: ApprovalPolicySource | undefined;
  private readonly reconcileAfterMs: number;
  private isClosed = false;

  protected constructor(
    /** The database file, or the PostgreSQL URL without its password. */
    readonly path: string,
    private readonly table: ApprovalTable,
    private readonly chain: ApprovalChain,
    options: ApprovalStoreOptions,
  ) {
    this.policy = options.policy;
    this.reconcileAfterMs = options.reconcileAfterMs ?? 5000;
    if (!Number.isInteger(this.reconcileAfterMs) || this.reconcileAfterMs < 0)
      throw new RangeError(`approvals store: reconcileAfterMs must be a whole number of milliseconds, got ${this.reconcileAfterMs}`);
  }

  async request(request: ApprovalRequest): Promise<Approval> {
    this.assertOpen();
    const tenant = typeof request?.tenant === 'string' ? request.tenant : DEFAULT_TENANT;
    const row = newApprovalRow(request, requestDefaults(policyOf(this.policy, tenant)), new Date());
    for (let attempt = 0; !(await this.table.insert(row)); attempt++) {
      const existing = await this.table.byKey(row.key!);
      if (existing) return toApproval(await this.current(existing));
      // The key's holder was withdrawn between our insert and our read: the key is free again.
      if (attempt > 0) throw new Error(`approvals: request.key ${JSON.stringify(row.key)} is taken and released repeatedly; try again`);
    }
    try {
      await this.chain.append(approvalAuditRecord(row, 'request'));
    } catch (error) {
      // A question the trail does not hold must not be answered: withdraw it; the caller denies.
      await this.table.withdraw(row.id).catch(() => {});
      throw new ApprovalChainError(row.id, 'withdrawn', error);
    }
    await this.table.setChained(row.id, CHAINED_REQUEST);
    return toApproval({ ...row, chained: CHAINED_REQUEST });
  }

  async get(id: string): Promise<Approval | null> {
    this.assertOpen();
    const row = await this.table.byId(id);
    return row ? toApproval(await this.current(row)) : null;
  }

  async list(filter: ApprovalFilter = {}): Promise<Approval[]> {
    this.assertOpen();
    if (filter.state !== undefined && !STATES.has(filter.state))
      throw new TypeError(`approvals: filter.state must be pending, approved, denied or expired, got ${JSON.stringify(filter.state)}`);
    if (filter.limit !== undefined && (!Number.isInteger(filter.limit) || filter.limit < 1))
      throw new RangeError(`approvals: filter.limit must be a whole number from 1, got ${filter.limit}`);
    await this.reconcile();
    await this.expireDue();
    return (await this.table.list(filter)).map(toApproval);
  }

  async answer(id: string, answer: ApprovalAnswer): Promise<AnswerResult> {
    this.assertOpen();
    validateAnswer(answer);
    const found = await this.table.byId(id);
    if (!found) return { ok: false, why: 'not-found', message: `no approval ${JSON.stringify(id)}` };
    const row = await this.current(found);
    if (row.state !== 'pending') return alreadyAnswered(row);
    const check = checkAnswer(policyOf(this.policy, row.tenant), toApproval(row), answer);
    if (!check.ok) return check;
    const now = new Date();
    const won = await this.table.answer(id, answerFields(answer, now), now.toISOString());
    const after = await this.table.byId(id);
    // Withdrawn meanwhile: its request never reached the chain.
    if (!after) return { ok: false, why: 'not-found', message: `no approval ${JSON.stringify(id)}` };
    // Lost: someone answered first, or the deadline passed meanwhile (then `current` expires it now).
    if (!won) return alreadyAnswered(await this.current(after));
    await this.catchUp(after, true);
    return { ok: true, approval: toApproval(after) };
  }

  async expireDue(now: Date = new Date()): Promise<Approval[]> {
    this.assertOpen();
    const expired: Approval[] = [];
    for (const row of await this.table.due(now.toISOString())) {
      const after = await this.expire(row, now);
      if (after) expired.push(toApproval(after));
    }
    return expired;
  }

  async standing(query: { tenant?: string; sessionId: string; tool: string; input: Record<string, unknown> }): Promise<Approval | null> {
    this.assertOpen();
    if (typeof query?.sessionId !== 'string' || typeof query.tool !== 'string')
      throw new TypeError('approvals: standing() needs { sessionId, tool, input } (strings, and the tool input object)');
    const row = await this.table.standing(query.tenant ?? DEFAULT_TENANT, query.sessionId, query.tool, canonicalJson(query.input ?? {}));
    return row ? toApproval(row) : null;
  }

  async wait(id: string, options: ApprovalWaitOptions = {}): Promise<Approval> {
    this.assertOpen();
    const pollMs = options.pollMs ?? 250;
    if (!Number.isInteger(pollMs) || pollMs < 1)
      throw new RangeError(`approvals: wait's pollMs must be a whole number from 1, got ${pollMs}`);
    const started = Date.now();
    for (;;) {
      options.signal?.throwIfAborted();
      const found = await this.table.byId(id);
      if (!found) throw new ApprovalNotFoundError(id);
      const row = await this.current(found);
      if (row.state !== 'pending') {
        if (row.chained >= CHAINED_ANSWER) return toApproval(row);
        // Decided elsewhere and not in the chain yet: its writer is appending it. Past the grace, presume it crashed.
        if (Date.parse(row.answered_at!) <= Date.now() - this.reconcileAfterMs) {
          await this.catchUp(row, false);
          return toApproval(row);
        }
      } else options.onWaiting?.(toApproval(row), Date.now() - started);
      // Wake at the deadline at the latest, so an expiry is seen when it falls due.
      const untilDeadline = Date.parse(row.expires_at) - Date.now() + 1;
      const ms = row.state === 'pending' ? Math.max(1, Math.min(pollMs, untilDeadline)) : Math.min(pollMs, 50);
      await pause(ms, options.signal, options.keepAlive !== false);
    }
  }

  /**
   * Appends to the chain what rows are missing there (writers that crashed after
   * writing the table); returns how many rows it caught up. Runs on open and on
   * every `list`.
   */
  async reconcile(): Promise<number> {
    this.assertOpen();
    const behind = await this.table.unchained(new Date(Date.now() - this.reconcileAfterMs).toISOString());
    for (const row of behind) await this.catchUp(row, false);
    return behind.length;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      await this.table.close();
    } finally {
      await this.chain.close();
    }
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The row with its expiry applied if its deadline has passed. */
  private async current(row: ApprovalRow): Promise<ApprovalRow> {
    if (row.state !== 'pending' || Date.parse(row.expires_at) > Date.now()) return row;
    return (await this.expire(row, new Date())) ?? (await this.table.byId(row.id)) ?? row;
  }

  /** Answers the row with its default, by `expiry`; undefined when someone answered it first. */
  private async expire(row: ApprovalRow, now: Date): Promise<ApprovalRow | undefined> {
    if (!(await this.table.answer(row.id, expiryFields(row, now), null))) return undefined;
    const after = (await this.table.byId(row.id))!;
    await this.catchUp(after, true);
    return after;
  }

  /**
   * Appends the steps of the row the chain lacks, in order. `fresh`: this process
   * just wrote the answer, so the chain cannot hold it yet; otherwise each step is
   * looked for first, so a writer that crashed after appending is not recorded twice.
   */
  private async catchUp(row: ApprovalRow, fresh: boolean): Promise<void> {
    try {
      if (row.chained < CHAINED_REQUEST) {
        if (!(await this.table.inChain(row, 'request'))) await this.chain.append(approvalAuditRecord(row, 'request'));
        await this.table.setChained(row.id, CHAINED_REQUEST);
        row.chained = CHAINED_REQUEST;
      }
      if (row.state === 'pending' || row.chained >= CHAINED_ANSWER) return;
      if (fresh || !(await this.table.inChain(row, 'answer'))) await this.chain.append(approvalAuditRecord(row, 'answer'));
    } catch (error) {
      throw new ApprovalChainError(row.id, 'behind', error);
    }
    await this.table.setChained(row.id, CHAINED_ANSWER);
    row.chained = CHAINED_ANSWER;
  }

  private assertOpen(): void {
    if (this.isClosed) throw new Error(`approvals store ${this.path} is closed`);
  }
}

/** The answer a latecomer gets: who answered first, when, and how. */
function alreadyAnswered(row: ApprovalRow): AnswerResult {
  const approval = toApproval(row);
  const message =
    row.state === 'expired'
      ? `approval ${row.id} expired at ${row.answered_at} unanswered (${row.note})`
      : `approval ${row.id} was already ${row.state} by ${row.answered_by} at ${row.answered_at}${row.note ? ` (note: ${row.note})` : ''}`;
  return { ok: false, why: 'answered', message, approval };
}
