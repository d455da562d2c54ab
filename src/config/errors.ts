import { HookwiseError } from '../core/errors.js';
/** A configuration problem: always names the file, and the JSON path where there is one. */
export class ConfigError extends HookwiseError {
  override readonly code = 'CONFIG';
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly jsonPath?: string,
  ) {
    super(`${file}: ${jsonPath ? `${jsonPath}: ` : ''}${detail}`);
  }
}
