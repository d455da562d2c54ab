import dns from 'node:dns/promises';
import net from 'node:net';
import { NetworkHostError } from '../errors.js';

/**
 * Turns an allowed host name into the addresses the proxy connects to. The proxy
 * resolves names itself (the sandbox has no DNS), so what the name stands for is
 * decided outside the sandbox, once per connection.
 */
export type Resolver = (host: string) => Promise<string[]>;

/**
 * The system resolver, without the addresses that lead back into this machine or its
 * cloud: loopback, unspecified, link-local (169.254.169.254, the metadata service) and
 * multicast. A public name that resolves there (DNS rebinding, a stale record) would
 * otherwise let the sandbox reach the host's own services through the proxy. Private
 * ranges (10/8, 192.168/16, fc00::/7) stay: company registries and git servers live there.
 * An IP literal the allowlist names is not resolved, so `127.0.0.1` can still be allowed.
 */
export const systemResolver: Resolver = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  const usable = found.map((a) => a.address).filter((a) => !isInternalAddress(a));
  if (usable.length === 0) {
    const list = found.map((a) => a.address).join(', ');
    throw new NetworkHostError(
      list ? `${host} resolves only to addresses of this machine or its link (${list})` : `${host} has no address`,
    );
  }
  return usable;
};

export function isInternalAddress(address: string): boolean {
  let a = address.toLowerCase();
  // An IPv4-mapped IPv6 address is the IPv4 address it maps (::ffff:127.0.0.1, ::ffff:7f00:1).
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (dotted) a = dotted[1]!;
  else if (hex) {
    const [hi, lo] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
    a = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  if (net.isIPv4(a)) {
    const [x, y] = a.split('.').map(Number) as [number, number];
    return x === 0 || x === 127 || (x === 169 && y === 254) || x >= 224;
  }
  if (net.isIPv6(a)) {
    return a === '::' || a === '::1' || /^fe[89ab]/.test(a) || a.startsWith('ff');
  }
  return true;
}
