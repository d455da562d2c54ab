import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAnswer, loadApprovalPolicyFile, parseApprovalPolicy, type Approval } from '../../src/approvals/index.js';

const approval = (overrides: Partial<Approval> = {}): Approval => ({
  id: 'a1',
  key: null,
  tenant: 'default',
  sessionId: 's',
  event: 'PreToolUse',
  tool: 'Bash',
  input: { command: 'ls' },
  toolUseId: null,
  hook: null,
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:10:00.000Z',
  onExpiry: 'deny',
  state: 'pending',
  answeredBy: null,
  answeredAt: null,
  note: null,
  scope: 'once',
  ...overrides,
});

describe('checkAnswer', () => {
  it('lets anyone answer anything, for the session too, when there is no policy', () => {
    expect(checkAnswer(undefined, approval(), { decision: 'approve', by: 'anyone', scope: 'session' })).toEqual({ ok: true });
    expect(checkAnswer({}, approval(), { decision: 'approve', by: 'anyone', scope: 'session' })).toEqual({ ok: true });
  });

  it('matches approvers by name and their tools by glob; a question without a tool needs an approver of every tool', () => {
    const policy = { approvers: [{ name: 'ops', tools: ['mcp__*__deploy', 'Bash'] }, { name: 'lead' }] };
    expect(checkAnswer(policy, approval({ tool: 'mcp__k8s__deploy' }), { decision: 'approve', by: 'ops' })).toEqual({ ok: true });
    expect(checkAnswer(policy, approval({ tool: 'mcp__k8s__delete' }), { decision: 'approve', by: 'ops' })).toMatchObject({
      ok: false,
      why: 'not-allowed',
      message: 'ops may not approve mcp__k8s__delete (tenant "default"): only lead may',
    });
    const stop = approval({ tool: null, event: 'Stop', tenant: 'acme' });
    expect(checkAnswer(policy, stop, { decision: 'approve', by: 'ops' })).toMatchObject({
      message: 'ops may not approve the Stop question (tenant "acme"): only lead may',
    });
    expect(checkAnswer(policy, stop, { decision: 'approve', by: 'lead' })).toEqual({ ok: true });
  });

  it('says so when nobody may approve, and lets a denial through whoever gives it', () => {
    const policy = { approvers: [], standing: [] };
    expect(checkAnswer(policy, approval(), { decision: 'approve', by: 'root' })).toMatchObject({
      message: 'root may not approve Bash (tenant "default"): nobody may approve it: add an approver to the policy',
    });
    expect(checkAnswer(policy, approval(), { decision: 'deny', by: 'root', scope: 'session' })).toEqual({ ok: true });
  });

  it('refuses a standing approval for a tool the policy does not list, or for any tool with standing: []', () => {
    expect(checkAnswer({ standing: [] }, approval(), { decision: 'approve', by: 'a', scope: 'session' })).toMatchObject({
      message: 'Bash may not be approved for the whole session (tenant "default"): no tool may; approve it once instead',
    });
    expect(checkAnswer({ standing: ['Read', 'Glob'] }, approval(), { decision: 'approve', by: 'a', scope: 'once' })).toEqual({ ok: true });
    expect(checkAnswer({ standing: ['B*'] }, approval(), { decision: 'approve', by: 'a', scope: 'session' })).toEqual({ ok: true });
  });
});

describe('approval policies from files and configs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-approvals-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the field and the fix of a wrong policy', () => {
    expect(() => parseApprovalPolicy({ approvers: [{ name: '' }] }, 'tenants.json: tenants.0.approvals')).toThrow(
      "tenants.json: tenants.0.approvals: approvers.0.name: the approver's name, as they give it to --as or their token maps to",
    );
    expect(() => parseApprovalPolicy({ onExpiry: 'allow' }, 'p')).toThrow(/^p: onExpiry: /);
    expect(() => parseApprovalPolicy({ expiresInMs: 2 ** 31 }, 'p')).toThrow('p: expiresInMs: at most 2147483647 ms (about 24 days)');
    expect(() => parseApprovalPolicy({ approver: [] }, 'p')).toThrow(/^p: \(top level\): /);
    expect(parseApprovalPolicy({ standing: ['Read'], onExpiry: 'approve' }, 'p')).toEqual({ standing: ['Read'], onExpiry: 'approve' });
  });

  it('reads a JSON or YAML file: the top level for every tenant, tenants.<name> instead of it for that one', async () => {
    const json = path.join(dir, 'policy.json');
    writeFileSync(json, JSON.stringify({ approvers: [{ name: 'alice' }], tenants: { acme: { approvers: [{ name: 'carol' }] } } }));
    const byTenant = await loadApprovalPolicyFile(json);
    expect(byTenant('default')).toEqual({ approvers: [{ name: 'alice' }] });
    expect(byTenant('acme')).toEqual({ approvers: [{ name: 'carol' }] });

    const yaml = path.join(dir, 'policy.yml');
    writeFileSync(yaml, 'tenants:\n  acme:\n    standing: Read\n');
    await expect(loadApprovalPolicyFile(yaml)).rejects.toThrow(`${yaml}: tenants.acme: standing: `);
    writeFileSync(yaml, 'approvers: [unclosed\n');
    await expect(loadApprovalPolicyFile(yaml)).rejects.toThrow(`${yaml}: not valid YAML: `);
    await expect(loadApprovalPolicyFile(path.join(dir, 'missing.json'))).rejects.toThrow(
      `${path.join(dir, 'missing.json')}: cannot read the approvals policy: `,
    );
  });
});
