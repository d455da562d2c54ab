import { HookwiseError } from './errors.js';

/**
 * A feature needs an optional package (an optional peer dependency in package.json)
 * that the project has not installed: the PostgreSQL stores need `pg`, the Redis
 * counters `ioredis`, MCP tools and the MCP proxy `@modelcontextprotocol/sdk`.
 */
export class MissingPackageError extends HookwiseError {
  override readonly code = 'MISSING_PACKAGE';
  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    super(`${feature} needs the package ${packageName}, which is not installed: run \`npm install ${packageName}\` in your project`);
  }
}

/**
 * What to throw when loading a feature that imports `packageName` failed: a
 * MissingPackageError when that package is not installed, else the error as it was.
 */
export function missingPackage(error: unknown, packageName: string, feature: string): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return error;
  const quoted = [`'${packageName}'`, `'${packageName}/`, `"${packageName}"`, `"${packageName}/`];
  return typeof message === 'string' && quoted.some((q) => message.includes(q)) ? new MissingPackageError(packageName, feature) : error;
}
