/**
 * How a policy configures the OS sandbox (docs/security.md#the-os-sandbox). The
 * shell guard takes it as its `sandbox` option: on by default.
 */
export interface SandboxSettings {
  /**
   * `off` (default): the command has no network at all; `on`: the host's network;
   * `{ allow: [...] }`: only these domains (and their subdomains), through a proxy
   * hookwise runs outside the sandbox.
   */
  network?: 'off' | 'on' | { allow: string[] };
  /** Environment variables passed in although their names or values look secret. */
  passEnv?: string[];
}

/** `off`: commands run as the host runs them (recorded on every call). */
export type SandboxOption = 'on' | 'off' | SandboxSettings;

export interface ResolvedSandbox {
  network: 'off' | 'on' | { allow: string[] };
  passEnv: string[];
}

/** Validate the option; throws a TypeError naming the field and the fix. */
export function resolveSandbox(option: SandboxOption | undefined, guard: string): ResolvedSandbox | undefined {
  if (option === 'off') return undefined;
  if (option === undefined || option === 'on') return { network: 'off', passEnv: [] };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError(`${guard}: sandbox must be "on", "off" or { network, passEnv }, got ${JSON.stringify(option)}`);
  }
  for (const key of Object.keys(option)) {
    if (key !== 'network' && key !== 'passEnv')
      throw new TypeError(`${guard}: sandbox.${key} is not an option (expected network or passEnv)`);
  }
  const network = option.network ?? 'off';
  if (network !== 'off' && network !== 'on') {
    const allow = (network as { allow?: unknown }).allow;
    if (typeof network !== 'object' || !Array.isArray(allow) || allow.some((d) => typeof d !== 'string' || !/^[a-z0-9.*-]+$/i.test(d))) {
      throw new TypeError(`${guard}: sandbox.network must be "off", "on" or { allow: ["registry.npmjs.org", ...] } (domain names)`);
    }
  }
  const passEnv = option.passEnv ?? [];
  if (!Array.isArray(passEnv) || passEnv.some((n) => typeof n !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n))) {
    throw new TypeError(`${guard}: sandbox.passEnv must be an array of environment variable names`);
  }
  return { network, passEnv };
}
