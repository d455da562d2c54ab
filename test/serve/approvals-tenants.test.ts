import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken, loadTenantsFile } from '../../src/serve/tenants.js';

// The tenants file's `approvals`: the tenant's approval policy, each approver with a token of their own.
const dir = mkdtempSync(path.join(tmpdir(), 'hookwise-tenants-approvals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const H = {
  acme: hashToken('acme-token'),
  globex: hashToken('globex-token'),
  alice: hashToken('alice-token'),
  bob: hashToken('bob-token'),
};
let n = 0;
function file(tenants: unknown[], ext = 'json'): string {
  const f = path.join(dir, `tenants-${++n}.${ext}`);
  writeFileSync(f, ext === 'json' ? JSON.stringify({ tenants }) : (tenants as string[]).join('\n'));
  return f;
}
const acme = (approvals: unknown) => ({ name: 'acme', tokenSha256: H.acme, config: 'acme.config.mjs', approvals });

describe('tenants file: approvals', () => {
  it('loads approvers with their tokens and the policy', async () => {
    const [t] = await loadTenantsFile(
      file([
        acme({
          approvers: [
            { name: 'alice', tokenSha256: H.alice },
            { name: 'bob@example.com', tokenSha256: H.bob, tools: ['Read', 'mcp__github__*'] },
          ],
          standing: ['Read'],
          expiresInMs: 900_000,
          onExpiry: 'deny',
        }),
      ]),
    );
    expect(t!.approvals).toEqual({
      approvers: [
        { name: 'alice', tokenSha256: H.alice },
        { name: 'bob@example.com', tokenSha256: H.bob, tools: ['Read', 'mcp__github__*'] },
      ],
      standing: ['Read'],
      expiresInMs: 900_000,
      onExpiry: 'deny',
    });
  });

  it('reads YAML too', async () => {
    const f = file(
      [
        'tenants:',
        '  - name: acme',
        `    tokenSha256: ${H.acme}`,
        '    config: acme.config.mjs',
        '    approvals:',
        '      approvers:',
        `        - { name: alice, tokenSha256: ${H.alice}, tools: [Bash] }`,
      ],
      'yaml',
    );
    expect((await loadTenantsFile(f))[0]!.approvals).toEqual({ approvers: [{ name: 'alice', tokenSha256: H.alice, tools: ['Bash'] }] });
  });

  it.each([
    [
      'an approver without a token',
      [acme({ approvers: [{ name: 'alice' }] })],
      /tenants-\d+\.json: tenants\.0\.approvals\.approvers\.0\.tokenSha256: /,
    ],
    [
      'a token that is not a sha256',
      [acme({ approvers: [{ name: 'alice', tokenSha256: 'alice-token' }] })],
      /tenants\.0\.approvals\.approvers\.0\.tokenSha256: the sha256 of the approver's own token as 64 lowercase hex digits/,
    ],
    [
      'a name that could pass for a tenant token (tenant:acme)',
      [acme({ approvers: [{ name: 'tenant:acme', tokenSha256: H.alice }] })],
      /tenants\.0\.approvals\.approvers\.0\.name: a name of 1 to 64 letters/,
    ],
    [
      'the name expiries answer as',
      [acme({ approvers: [{ name: 'expiry', tokenSha256: H.alice }] })],
      /tenants\.0\.approvals\.approvers\.0\.name: "expiry" is what an expiry answers as; give the approver another name/,
    ],
    [
      'an empty tools list',
      [acme({ approvers: [{ name: 'alice', tokenSha256: H.alice, tools: [] }] })],
      /tenants\.0\.approvals\.approvers\.0\.tools: at least one tool glob; leave tools out/,
    ],
    ['an unknown field', [acme({ aprovers: [] })], /tenants\.0\.approvals: Unrecognized key: "aprovers"/],
    ['a bad onExpiry', [acme({ onExpiry: 'maybe' })], /tenants\.0\.approvals\.onExpiry: /],
    [
      'an approver listed twice',
      [
        acme({
          approvers: [
            { name: 'alice', tokenSha256: H.alice },
            { name: 'alice', tokenSha256: H.bob },
          ],
        }),
      ],
      /tenants\.0\.approvals\.approvers\.1\.name: "alice" is listed twice in tenant "acme"/,
    ],
    [
      "an approver holding a tenant's token",
      [acme({ approvers: [{ name: 'alice', tokenSha256: H.globex }] }), { name: 'globex', tokenSha256: H.globex, config: 'g.mjs' }],
      /tenants\.0\.approvals\.approvers\.0\.tokenSha256: the same token is given to tenant "globex"; give each approver a token of their own/,
    ],
    [
      "two tenants' approvers sharing a token",
      [
        acme({ approvers: [{ name: 'alice', tokenSha256: H.alice }] }),
        { name: 'globex', tokenSha256: H.globex, config: 'g.mjs', approvals: { approvers: [{ name: 'al', tokenSha256: H.alice }] } },
      ],
      /tenants\.1\.approvals\.approvers\.0\.tokenSha256: the same token is given to approver "alice" of tenant "acme"/,
    ],
  ])('refuses %s, naming the file and the field', async (_what, tenants, message) => {
    const f = file(tenants);
    const error = await loadTenantsFile(f).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message.startsWith(`${f}: `)).toBe(true);
    expect(error?.message).toMatch(message);
  });
});
