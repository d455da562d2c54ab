/**
 * hookwise's OS sandbox: every shell command a policy lets run runs inside it,
 * derived from the same PathPolicy the guards judge with. The kernel enforces;
 * the parser explains (docs/security.md#the-os-sandbox).
 */
export {
  resolveSandbox,
  type NetworkAllow,
  type SandboxOption,
  type SandboxSettings,
  type ResolvedSandbox,
} from './settings.js';
export { REGISTRIES } from './proxy/allowlist.js';
export { detectSandbox, type Availability } from './detect.js';
export type { Layout } from './layout.js';
export { Sandbox, type WrapOptions, type Wrapped } from './sandbox.js';
export { bwrapArgs } from './bwrap.js';
export { seatbeltProfile } from './seatbelt.js';
export { sandboxExec, type SandboxExecOptions, type SandboxExecResult } from './exec.js';
