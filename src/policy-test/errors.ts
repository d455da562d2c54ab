/** A test file, transcript or flag that cannot be used: one line naming the file, the field and the fix. */
export class PolicyTestError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly field?: string,
  ) {
    super(`${file}${field ? ` ${field}` : ''}: ${message}`);
    this.name = 'PolicyTestError';
  }
}
