import type { z } from 'zod';
import { joinPath } from './json-path.js';

/** A zod issue as `path: what was expected`, e.g. `hooks.PreToolUse[0].hooks[1].timeout: expected number`. */
export function formatIssue(issue: z.core.$ZodIssue, basePath: string): string {
  const where = joinPath(basePath, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)));
  return `${where}: ${describeIssue(issue)}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return /received undefined$/.test(issue.message) ? `required (expected ${issue.expected})` : `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    case 'too_small':
      if (issue.origin === 'string') return 'expected a non-empty string';
      if (issue.origin === 'array') return `expected at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `expected a number ${issue.inclusive ? '>=' : '>'} ${issue.minimum}`;
    default:
      return issue.message;
  }
}
