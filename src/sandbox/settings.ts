/**
 * How a policy configures the OS sandbox (docs/security.md#the-os-sandbox). The
 * shell guard takes it as its `sandbox` option: on by default.
 */
export interface SandboxSettings {
  /**
   * `off` (default): the command has no network at all, loopback included; `on`:
   * the host's network (what the parser cannot prove safe is then refused, not
   * contained, since an upload would leave). A domain allowlist is not built yet
   * (docs/security.md#the-os-sandbox).
   */
  network?: 'off' | 'on';
  /** Environment variables passed in although their names or values look secret. */
  passEnv?: string[];
}

/** `off`: commands run as the host runs them (recorded on every call). */
export type SandboxOption = 'on' | 'off' | SandboxSettings;

export interface ResolvedSandbox {
  network: 'off' | 'on';
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
    throw new TypeError(
      `${guard}: sandbox.network must be "off" or "on", got ${JSON.stringify(network)} (a domain allowlist is not available yet)`,
    );
  }
  const passEnv = option.passEnv ?? [];
  if (!Array.isArray(passEnv) || passEnv.some((n) => typeof n !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n))) {
    throw new TypeError(`${guard}: sandbox.passEnv must be an array of environment variable names`);
  }
  return { network, passEnv };
}
