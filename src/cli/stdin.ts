import { UserError } from './errors.js';
import { readStdin } from './read-stdin.cjs';

export { readStdin };

/** Stdin (or what was already read of it) as a JSON object; `{}` when empty. Anything else is a UserError naming stdin. */
export async function readInputObject(already?: string): Promise<Record<string, unknown>> {
  return parseInputObject(already ?? (await readStdin()));
}

export function parseInputObject(raw: string): Record<string, unknown> {
  const text = raw.trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`stdin: input is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(`stdin: input must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}
