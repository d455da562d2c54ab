import { signedApprovalOf } from '../audit/approval-mac.js';
import { canonicalJson } from '../audit/canonical-json.js';
import { ApprovalChainError, ApprovalNotFoundError, ApprovalStoreOptionError, ApprovalsBusyError, ApprovalsClosedError } from './errors.js';
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
  signRow,
  toApproval,
  validateAnswer,
  type AnswerFields,
  type ApprovalRow,
} from '../audit/approval-record.js';
import type { ApprovalChain, ApprovalTable } from './table.js';
import { judgeRow, type JudgedRow } from '../audit/approval-trust.js';
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
import { ApprovalInputError } from '../audit/errors.js';
import { AuditKeyError } from '../audit/anchor.js';

export interface ApprovalStoreOptions {
  /** Who may approve what, default expiry, standing permissions (./policy.ts). Default: no rules. */
  policy?: ApprovalPolicySource;
  /**
   * How long a request or answer may stay out of the audit chain before another
   * process presumes its writer crashed and appends it. Default 5000 ms.
   */
  reconcileAfterMs?: number;
}

/**
 * The audit key the approvals are signed with; an approvals store without one
 * would have to believe whatever the table says, so it refuses to open.
 */
export function signingKey(key: Buffer | undefined, where: string): Buffer {
  if (key === undefined)
    throw new AuditKeyError(
      `approvals store ${where}: no audit key to sign approvals with; set HOOKWISE_AUDIT_KEY (16 characters or more) or HOOKWISE_AUDIT_KEY_FILE, or pass the key option`,
    );
  return key;
}

const STATES: ReadonlySet<ApprovalState> = new Set(['pending', 'approved', 'denied', 'expired']);

/**
 * The store's logic, shared by SQLite and PostgreSQL (./sqlite-store.ts,
 * ./postgres-store.ts supply the table and the chain).
 *
 * Each step writes the table first and then the chain: the first answer wins by
 * a conditional UPDATE on the row. A crash between the two leaves the row's
 * `chained` level behind its state, and the reconcile (on open, on every `list`,
 * and in `wait`) appends the missing record, after checking the chain does not
 * hold it already.
 *
 * Rows and records are signed with the audit key, and what is read is judged by
 * ./trust.ts: the chain decides, a signed row stands until its record is in the
 * chain, and a row changed outside hookwise is ignored and reported (its
 * `disagreement`). Only signed rows are ever caught up into the chain.
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
    /** The audit key: rows and records are signed with it (./trust.ts). */
    private readonly key: Buffer,
    options: ApprovalStoreOptions,
  ) {
    this.policy = options.policy;
    this.reconcileAfterMs = options.reconcileAfterMs ?? 5000;
    if (!Number.isInteger(this.reconcileAfterMs) || this.reconcileAfterMs < 0)
      throw new ApprovalStoreOptionError(
        `approvals store: reconcileAfterMs must be a whole number of milliseconds, got ${this.reconcileAfterMs}`,
      );
  }

  async request(request: ApprovalRequest): Promise<Approval> {
    this.assertOpen();
    const tenant = typeof request?.tenant === 'string' ? request.tenant : DEFAULT_TENANT;
    const row = signRow(this.key, newApprovalRow(request, requestDefaults(policyOf(this.policy, tenant)), new Date()));
    for (let attempt = 0; !(await this.table.insert(row)); attempt++) {
      const existing = await this.table.byKey(row.key!);
      if (existing) return shown(await this.current(await this.judge(existing)));
      // The key's holder was withdrawn between our insert and our read: the key is free again.
      if (attempt > 0)
        throw new ApprovalsBusyError(`approvals: request.key ${JSON.stringify(row.key)} is taken and released repeatedly; try again`);
    }
    try {
      await this.chain.append(approvalAuditRecord(row, 'request', this.key));
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
    return row ? shown(await this.current(await this.judge(row))) : null;
  }

  async list(filter: ApprovalFilter = {}): Promise<Approval[]> {
    this.assertOpen();
    if (filter.state !== undefined && !STATES.has(filter.state))
      throw new ApprovalInputError(
        `approvals: filter.state must be pending, approved, denied or expired, got ${JSON.stringify(filter.state)}`,
      );
    if (filter.limit !== undefined && (!Number.isInteger(filter.limit) || filter.limit < 1))
      throw new ApprovalInputError(`approvals: filter.limit must be a whole number from 1, got ${filter.limit}`);
    await this.reconcile();
    await this.expireDue();
    // The state filter applies to the judged state: a row flipped outside hookwise is listed as what is signed.
    const rows = await this.table.list({ ...filter, state: undefined, limit: filter.state === undefined ? filter.limit : undefined });
    const judged: Approval[] = [];
    for (const row of rows) {
      const approval = shown(await this.judge(row));
      if (filter.state === undefined || approval.state === filter.state) judged.push(approval);
      if (filter.limit !== undefined && judged.length >= filter.limit) break;
    }
    return judged;
  }

  /** Approvals whose stored row disagrees with what is signed (verify and \`approvals list\` report them). */
  async disagreements(): Promise<Approval[]> {
    this.assertOpen();
    const out: Approval[] = [];
    for (const row of await this.table.list({})) {
      const approval = shown(await this.judge(row));
      if (approval.disagreement !== undefined) out.push(approval);
    }
    return out;
  }

  async answer(id: string, answer: ApprovalAnswer): Promise<AnswerResult> {
    this.assertOpen();
    validateAnswer(answer);
    const found = await this.table.byId(id);
    if (!found) return { ok: false, why: 'not-found', message: `no approval ${JSON.stringify(id)}` };
    const judged = await this.current(await this.judge(found));
    if (judged.row.state !== 'pending') return alreadyAnswered(judged.row);
    if (judged.source === 'none') return { ok: false, why: 'not-found', message: `no signed record of approval ${JSON.stringify(id)}` };
    const check = checkAnswer(policyOf(this.policy, judged.row.tenant), toApproval(judged.row), answer);
    if (!check.ok) return check;
    const now = new Date();
    const won = await this.write(judged, found, answerFields(answer, now), now.toISOString());
    const after = await this.table.byId(id);
    // Withdrawn meanwhile: its request never reached the chain.
    if (!after) return { ok: false, why: 'not-found', message: `no approval ${JSON.stringify(id)}` };
    // Lost: someone answered first, or the deadline passed meanwhile (then `current` expires it now).
    if (!won) return alreadyAnswered((await this.current(await this.judge(after))).row);
    await this.catchUp(won, true);
    return { ok: true, approval: toApproval(won) };
  }

  async expireDue(now: Date = new Date()): Promise<Approval[]> {
    this.assertOpen();
    const expired: Approval[] = [];
    for (const row of await this.table.due(now.toISOString())) {
      const judged = await this.judge(row);
      if (judged.row.state !== 'pending' || judged.source === 'none') continue;
      const after = await this.expire(judged, row, now);
      if (after) expired.push(toApproval(after));
    }
    return expired;
  }

  async standing(query: { tenant?: string; sessionId: string; tool: string; input: Record<string, unknown> }): Promise<Approval | null> {
    this.assertOpen();
    if (typeof query?.sessionId !== 'string' || typeof query.tool !== 'string')
      throw new ApprovalInputError('approvals: standing() needs { sessionId, tool, input } (strings, and the tool input object)');
    const tenant = query.tenant ?? DEFAULT_TENANT;
    const input = canonicalJson(query.input ?? {});
    for (const candidate of await this.table.standing(tenant, query.sessionId, query.tool, input)) {
      // Only what is signed stands: a row turned into a session approval outside hookwise is not one.
      const { row, source } = await this.judge(candidate);
      const signed = source === 'chain' || source === 'row';
      if (
        signed &&
        row.state === 'approved' &&
        row.scope === 'session' &&
        row.tenant === tenant &&
        row.session_id === query.sessionId &&
        row.tool === query.tool &&
        row.input === input
      )
        return toApproval(row);
    }
    return null;
  }

  async wait(id: string, options: ApprovalWaitOptions = {}): Promise<Approval> {
    this.assertOpen();
    const pollMs = options.pollMs ?? 250;
    if (!Number.isInteger(pollMs) || pollMs < 1)
      throw new ApprovalInputError(`approvals: wait's pollMs must be a whole number from 1, got ${pollMs}`);
    const started = Date.now();
    for (;;) {
      options.signal?.throwIfAborted();
      const found = await this.table.byId(id);
      if (!found) throw new ApprovalNotFoundError(id);
      const judged = await this.current(await this.judge(found));
      const row = judged.row;
      if (row.state !== 'pending') {
        // Decided in the chain, or nothing signed at all (denied).
        if (judged.source === 'chain' || judged.source === 'none') return shown(judged);
        // Signed and not in the chain yet: its writer is appending it. Past the grace, presume it crashed.
        if (Date.parse(row.answered_at!) <= Date.now() - this.reconcileAfterMs) {
          await this.catchUp(row, false);
          return toApproval(row);
        }
      } else options.onWaiting?.(shown(judged), Date.now() - started);
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
    let caughtUp = 0;
    for (const found of behind) {
      // Only rows the store signed are caught up: a row changed outside hookwise never reaches the chain.
      const judged = await this.judge(found);
      // Appended, and the writer crashed before marking it.
      if (judged.source === 'chain' && judged.disagreement === undefined) await this.table.setChained(found.id, CHAINED_ANSWER);
      if (judged.source !== 'row') continue;
      await this.catchUp(judged.row, false);
      caughtUp++;
    }
    return caughtUp;
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

  /** The stored row judged against the key and the chain (./trust.ts). */
  private async judge(raw: ApprovalRow): Promise<JudgedRow> {
    return judgeRow(this.key, raw, await this.table.chainRecords(raw.id));
  }

  /** The judged row with its expiry applied if its deadline has passed. */
  private async current(judged: JudgedRow): Promise<JudgedRow> {
    const row = judged.row;
    if (row.state !== 'pending' || Date.parse(row.expires_at) > Date.now()) return judged;
    const raw = await this.table.byId(row.id);
    if (!raw) return judged;
    if ((await this.expire(judged, raw, new Date())) !== undefined) return this.judge((await this.table.byId(row.id)) ?? raw);
    const after = await this.table.byId(row.id);
    return after ? this.judge(after) : judged;
  }

  /** Answers the row with its default, by `expiry`; undefined when someone answered it first. */
  private async expire(judged: JudgedRow, raw: ApprovalRow, now: Date): Promise<ApprovalRow | undefined> {
    const after = await this.write(judged, raw, expiryFields(judged.row, now), null);
    if (after) await this.catchUp(after, true);
    return after;
  }

  /**
   * Writes an answer over the row as it was read (compare and swap on its state
   * and signature), restoring every field to what is signed: a row changed
   * outside hookwise is replaced, not built on. Returns the new row when it won.
   */
  private async write(
    judged: JudgedRow,
    raw: ApprovalRow,
    fields: AnswerFields,
    deadline: string | null,
  ): Promise<ApprovalRow | undefined> {
    const next = signRow(this.key, { ...judged.row, ...fields, chained: Math.min(raw.chained, CHAINED_REQUEST) });
    return (await this.table.replace(next, { state: raw.state, mac: raw.mac }, deadline)) ? next : undefined;
  }

  /**
   * Appends the steps of a signed row the chain lacks, in order. `fresh`: this
   * process just wrote the answer, so the chain cannot hold it yet; otherwise each
   * step is looked for first, so a writer that crashed after appending is not
   * recorded twice.
   */
  private async catchUp(row: ApprovalRow, fresh: boolean): Promise<void> {
    try {
      const inChain = fresh && row.chained >= CHAINED_REQUEST ? [] : await this.actionsInChain(row.id);
      if (row.chained < CHAINED_REQUEST) {
        if (!inChain.includes('request')) await this.chain.append(approvalAuditRecord(row, 'request', this.key));
        await this.table.setChained(row.id, CHAINED_REQUEST);
        row.chained = CHAINED_REQUEST;
      }
      if (row.state === 'pending' || row.chained >= CHAINED_ANSWER) return;
      if (fresh || !inChain.includes('answer')) await this.chain.append(approvalAuditRecord(row, 'answer', this.key));
    } catch (error) {
      throw new ApprovalChainError(row.id, 'behind', error);
    }
    await this.table.setChained(row.id, CHAINED_ANSWER);
    row.chained = CHAINED_ANSWER;
  }

  /** The steps of this approval the chain holds signed. */
  private async actionsInChain(id: string): Promise<string[]> {
    const actions: string[] = [];
    for (const data of await this.table.chainRecords(id)) {
      const signed = signedApprovalOf(this.key, data);
      if (signed && signed.approval.id === id) actions.push(signed.action);
    }
    return actions;
  }

  private assertOpen(): void {
    if (this.isClosed) throw new ApprovalsClosedError(`approvals store ${this.path} is closed`);
  }
}

/** What callers see: the judged approval, with its disagreement when the row was changed outside hookwise. */
function shown(judged: JudgedRow): Approval {
  const approval = toApproval(judged.row);
  return judged.disagreement === undefined ? approval : { ...approval, disagreement: judged.disagreement };
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
