import { describe, expect, it } from 'vitest';
import { shellGuard } from '../../src/guards/index.js';
import { REGISTRIES, resolveSandbox } from '../../src/sandbox/index.js';
import { isAllowed, normalizeHost } from '../../src/sandbox/proxy/allowlist.js';
import { isInternalAddress, systemResolver } from '../../src/sandbox/proxy/resolve.js';

const allow = (list: string[]) => {
  const network = resolveSandbox({ network: { allow: list } }, 't')!.network;
  if (typeof network !== 'object') throw new Error('not an allowlist');
  return network.allow;
};

describe('host names are compared in one form', () => {
  it.each([
    ['Registry.NPMjs.org', 'registry.npmjs.org'],
    ['registry.npmjs.org.', 'registry.npmjs.org'],
    ['BÜCHER.de', 'xn--bcher-kva.de'],
    ['127.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['[::FFFF:127.0.0.1]', '::ffff:7f00:1'],
  ])('%s is %s', (raw, normal) => {
    expect(normalizeHost(raw)).toBe(normal);
  });

  it.each(['a/b', 'user@host', 'host:80', '', 'a..b', 'a b'])('%j is not a host name', (raw) => {
    expect(normalizeHost(raw)).toBeUndefined();
  });
});

describe('the allowlist', () => {
  const list = allow(['Registry.Test', '*.Mirror.Test', '10.0.0.7']);

  it('matches exact names and names below a *. entry, in any spelling', () => {
    expect(list).toEqual(['*.mirror.test', '10.0.0.7', 'registry.test']);
    for (const host of ['registry.test', 'a.mirror.test', 'a.b.mirror.test', '10.0.0.7']) expect(isAllowed(host, list)).toBe(true);
    expect(isAllowed(normalizeHost('REGISTRY.test.')!, list)).toBe(true);
  });

  it('does not match the *. entry itself, look-alike suffixes, other names or unlisted addresses', () => {
    for (const host of ['mirror.test', 'evilmirror.test', 'registry.test.evil', 'evil.test', '127.0.0.1', '10.0.0.8']) {
      expect(isAllowed(host, list), host).toBe(false);
    }
  });

  it('registries is the package registries and git remotes; registries: true adds them to a list', () => {
    expect(resolveSandbox({ network: 'registries' }, 't')!.network).toEqual({ allow: [...REGISTRIES].sort() });
    for (const host of ['registry.npmjs.org', 'pypi.org', 'crates.io', 'proxy.golang.org', 'github.com', 'gitlab.com', 'bitbucket.org']) {
      expect(REGISTRIES).toContain(host);
    }
    const both = resolveSandbox({ network: { allow: ['api.example.com'], registries: true } }, 't')!.network;
    expect(typeof both === 'object' && both.allow).toEqual([...REGISTRIES, 'api.example.com'].sort());
  });

  it('refuses a malformed entry when the guard is made, naming the field', () => {
    expect(() => shellGuard({ sandbox: { network: { allow: ['https://npmjs.org'] } } })).toThrow(
      /sandbox\.network\.allow\[0\] "https:\/\/npmjs\.org" is not a host name/,
    );
    expect(() => shellGuard({ sandbox: { network: { allow: ['*.com'] } } })).toThrow(/allow\[0\] "\*\.com" would match every name/);
    expect(() => shellGuard({ sandbox: { network: { allow: ['a.*.com'] } } })).toThrow(/has a \* other than a leading/);
    expect(() => shellGuard({ sandbox: { network: { allow: 'github.com' } as never } })).toThrow(
      /sandbox\.network\.allow must be an array/,
    );
    expect(() => shellGuard({ sandbox: { network: { allow: [], extra: 1 } as never } })).toThrow(
      /sandbox\.network\.extra is not an option/,
    );
  });
});

describe("the proxy's own resolver", () => {
  it('does not hand out addresses of this machine or its link: a name that resolves only there is refused', async () => {
    await expect(systemResolver('localhost')).rejects.toThrow(/localhost resolves only to addresses of this machine/);
    for (const a of ['127.0.0.1', '::1', '0.0.0.0', '169.254.169.254', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '224.0.0.1']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.7', '192.168.1.2', '140.82.112.3', '2606:4700::1111']) expect(isInternalAddress(a), a).toBe(false);
  });
});
