import { readFileSync, writeFileSync } from 'node:fs';
import type { PolicyExpectation } from './define.js';
import { PolicyTestError } from './errors.js';
import { answersOf } from './expect.js';
import type { FileResult } from './run-tests.js';

/** Fields written into a case that expects nothing yet. */
const FIRST_FIELDS: Array<keyof PolicyExpectation> = ['decision', 'reason', 'hook'];

/**
 * `--update`: write what the policy answers now into each case's `expect` (the fields
 * it already lists; decision, reason and hook when it lists none), for a person to
 * review in the diff. YAML keeps its comments and layout. Returns how many cases changed.
 */
export async function updateCases(result: FileResult): Promise<number> {
  const { file, format } = result.loaded;
  if (format === 'ts')
    throw new PolicyTestError(file, 'TypeScript cases are code and are not rewritten; --update works on YAML and JSON files');
  const changed = result.cases.filter((c) => c.mismatches.length > 0 || Object.keys(c.case.expect).length === 0);
  if (changed.length === 0) return 0;
  const text = readFileSync(file, 'utf8');
  const fieldsOf = (expect: PolicyExpectation) => {
    const listed = Object.keys(expect) as Array<keyof PolicyExpectation>;
    return listed.length ? listed : FIRST_FIELDS;
  };
  if (format === 'json') {
    const data = JSON.parse(text) as { cases: Array<{ expect: Record<string, unknown> }> };
    for (const c of changed) {
      const answers = answersOf(c.outcome);
      for (const field of fieldsOf(c.case.expect)) data.cases[c.index]!.expect[field] = answers[field];
    }
    writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    return changed.length;
  }
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text);
  for (const c of changed) {
    const answers = answersOf(c.outcome);
    for (const field of fieldsOf(c.case.expect)) doc.setIn(['cases', c.index, 'expect', field], answers[field]);
  }
  writeFileSync(file, doc.toString());
  return changed.length;
}
