import { UserError } from './errors.js';

/** Read all of stdin; empty when stdin is a terminal. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Stdin as a JSON object; `{}` when empty. Anything else is a UserError naming stdin. */
export async function readInputObject(): Promise<Record<string, unknown>> {
  const text = (await readStdin()).trim();
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
