export { startHookServer, PROJECT_DIR_HEADER, ERROR_HEADER, type HookServer, type ServeOptions } from './server.js';
export { loadTenantsFile, hashToken, type Tenant } from './tenants.js';
export { failureOutcome } from './answers.js';
export type { EngineAttach } from './policy.js';
