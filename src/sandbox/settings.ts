import { allowEntryProblem, normalizeEntry, REGISTRIES } from './proxy/allowlist.js';
import { SandboxOptionError } from './errors.js';

/**
 * How a policy configures the OS sandbox (docs/security.md#the-os-sandbox). The
 * shell guard takes it as its `sandbox` option: on by default.
 */
export interface SandboxSettings {
  /**
   * `off` (default): the command has no network at all, loopback included; `on`:
   * the host's network (what the parser cannot prove safe is then refused, not
   * contained, since an upload would leave). `registries`, or `{ allow }`: only the
   * hosts listed, through hookwise's proxy outside the sandbox (Linux; needs socat):
   * `registries` is the package registries and git remotes (REGISTRIES), `{ allow:
   * [...], registries: true }` adds your hosts to them. An entry is a host name, an
   * IP address, or `*.example.com` for every name below example.com.
   */
  network?: 'off' | 'on' | 'registries' | NetworkAllow;
  /** Environment variables passed in although their names or values look secret. */
  passEnv?: string[];
}

export interface NetworkAllow {
  /** Host names (`registry.npmjs.org`), `*.` suffixes (`*.githubusercontent.com`) or IP addresses. */
  allow: string[];
  /** Also allow REGISTRIES (default false: the list is exactly `allow`). */
  registries?: boolean;
}

/** `off`: commands run as the host runs them (recorded on every call). */
export type SandboxOption = 'on' | 'off' | SandboxSettings;

export interface ResolvedSandbox {
  /** An allowlist is normalized (lower case, IDNA, no trailing dot), without duplicates, sorted. */
  network: 'off' | 'on' | { allow: string[] };
  passEnv: string[];
}

/** Validate the option; throws a SandboxOptionError naming the field and the fix. */
export function resolveSandbox(option: SandboxOption | undefined, guard: string): ResolvedSandbox | undefined {
  if (option === 'off') return undefined;
  if (option === undefined || option === 'on') return { network: 'off', passEnv: [] };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new SandboxOptionError(`${guard}: sandbox must be "on", "off" or { network, passEnv }, got ${JSON.stringify(option)}`);
  }
  for (const key of Object.keys(option)) {
    if (key !== 'network' && key !== 'passEnv')
      throw new SandboxOptionError(`${guard}: sandbox.${key} is not an option (expected network or passEnv)`);
  }
  const network = resolveNetwork(option.network ?? 'off', guard);
  const passEnv = option.passEnv ?? [];
  if (!Array.isArray(passEnv) || passEnv.some((n) => typeof n !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n))) {
    throw new SandboxOptionError(`${guard}: sandbox.passEnv must be an array of environment variable names`);
  }
  return { network, passEnv };
}

function resolveNetwork(network: unknown, guard: string): ResolvedSandbox['network'] {
  if (network === 'off' || network === 'on') return network;
  if (network === 'registries') return { allow: [...REGISTRIES].sort() };
  const shape = `"off", "on", "registries" or { allow: ["registry.npmjs.org", "*.example.com"], registries?: true }`;
  if (typeof network !== 'object' || network === null || Array.isArray(network)) {
    throw new SandboxOptionError(`${guard}: sandbox.network must be ${shape}, got ${JSON.stringify(network)}`);
  }
  for (const key of Object.keys(network)) {
    if (key !== 'allow' && key !== 'registries')
      throw new SandboxOptionError(`${guard}: sandbox.network.${key} is not an option (expected allow or registries)`);
  }
  const { allow, registries } = network as Partial<NetworkAllow>;
  if (!Array.isArray(allow)) throw new SandboxOptionError(`${guard}: sandbox.network.allow must be an array of host names (${shape})`);
  if (registries !== undefined && typeof registries !== 'boolean') {
    throw new SandboxOptionError(`${guard}: sandbox.network.registries must be true or false, got ${JSON.stringify(registries)}`);
  }
  allow.forEach((entry, i) => {
    const problem = allowEntryProblem(entry);
    if (problem) throw new SandboxOptionError(`${guard}: sandbox.network.allow[${i}] ${JSON.stringify(entry)} ${problem}`);
  });
  const entries = [...allow.map(normalizeEntry), ...(registries ? REGISTRIES : [])];
  return { allow: [...new Set(entries)].sort() };
}
