/** An error the CLI prints as one line (no stack) before exiting 1. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
