/** A configuration problem: always names the file, and the JSON path where there is one. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly jsonPath?: string,
  ) {
    super(`${file}: ${jsonPath ? `${jsonPath}: ` : ''}${detail}`);
    this.name = 'ConfigError';
  }
}
