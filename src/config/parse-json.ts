import { ConfigError } from './errors.js';
import { findJsonProblem } from './json-error.js';

/** JSON.parse, with errors that name the file, the line and the column. */
export function parseJson(file: string, text: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch (error) {
    const problem = findJsonProblem(body);
    if (!problem) throw new ConfigError(file, `invalid JSON: ${(error as Error).message.split('\n')[0]}`);
    const before = body.slice(0, problem.position);
    const line = before.split('\n').length;
    const column = problem.position - before.lastIndexOf('\n');
    throw new ConfigError(file, `invalid JSON at line ${line}, column ${column}: ${problem.message}`);
  }
}
