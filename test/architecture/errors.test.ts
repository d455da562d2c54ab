import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditRecordError } from '../../src/audit/errors.js';
import { HookwiseError } from '../../src/core/errors.js';

/**
 * Every error hookwise throws on purpose is a HookwiseError with a stable code
 * (docs/api.md, "Errors"), and so is every error it rejects with or aborts with. A plain
 * `Error`, `TypeError` or `RangeError` is made
 * only where hookwise cannot do otherwise (an unreachable invariant, code that runs
 * inside another program), and a `// plain Error: <why>` comment on the line says so.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const MARKER = 'plain Error:';
const PLAIN_THROW = /\bnew (Error|TypeError|RangeError)\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(c|m)?ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const FILES = sources(SRC).map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/** `src/x.ts:12` for every plain throw without the marker on its line or the line above. */
function unmarkedPlainThrows(files: { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (PLAIN_THROW.test(line) && !line.includes(MARKER) && !(lines[i - 1] ?? '').includes(MARKER)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

/**
 * Every code a HookwiseError in src/ can carry: each class's fixed `code`, and, for a
 * class whose code varies (CheckpointError: `code: string`, 'CHECKPOINT' by default),
 * every literal in src/ that extends its default (`'CHECKPOINT_NO_STEP'`).
 */
function codesInSource(files: { text: string }[]): Set<string> {
  const codes = new Set<string>();
  const families: string[] = [];
  for (const { text } of files) {
    for (const m of text.matchAll(/readonly code = '([^']+)'/g)) codes.add(m[1]!);
    if (/readonly code: string;/.test(text)) for (const m of text.matchAll(/\bcode = '([A-Z0-9_]+)'/g)) families.push(m[1]!);
  }
  for (const family of families) {
    codes.add(family);
    for (const { text } of files) for (const m of text.matchAll(new RegExp(`'(${family}_[A-Z0-9_]+)'`, 'g'))) codes.add(m[1]!);
  }
  codes.delete('HOOKWISE'); // the base class's; no error is thrown with it
  return codes;
}

/** The codes of docs/api.md's "Errors" table: the first cell of each row. */
function codesInDocs(): Set<string> {
  const page = readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8');
  const section = page.split(/^## /m).find((s) => s.startsWith('Errors\n')) ?? '';
  return new Set([...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));
}

describe('errors hookwise throws on purpose', () => {
  it('are HookwiseErrors: a plain Error, TypeError or RangeError only with a "plain Error: <why>" comment', () => {
    expect(unmarkedPlainThrows(FILES)).toEqual([]);
  });

  it('the scan finds an unmarked plain throw or rejection, and accepts a marked one', () => {
    const file = 'src/x.ts';
    const text = [
      'throw new TypeError("bad option");',
      '// plain Error: unreachable',
      "throw new Error('never');",
      "reject(new Error('gone'));",
    ].join('\n');
    expect(unmarkedPlainThrows([{ file, text }])).toEqual(['src/x.ts:1', 'src/x.ts:4']);
  });

  it('carry SCREAMING_SNAKE_CASE codes', () => {
    const codes = [...codesInSource(FILES)];
    expect(codes.length).toBeGreaterThan(60);
    expect(codes.filter((code) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code))).toEqual([]);
  });

  it('docs/api.md lists every code in src/, and no code that src/ does not have', () => {
    const inSource = codesInSource(FILES);
    const inDocs = codesInDocs();
    expect([...inSource].filter((code) => !inDocs.has(code)).sort(), 'codes not in docs/api.md "Errors"').toEqual([]);
    expect([...inDocs].filter((code) => !inSource.has(code)).sort(), 'documented codes no class has').toEqual([]);
  });

  it('are named by their class, with no constructor that says so again', () => {
    class PolicyLeftOpenError extends HookwiseError {}
    expect(new PolicyLeftOpenError('x').name).toBe('PolicyLeftOpenError');
    expect(new AuditRecordError('x').name).toBe('AuditRecordError');
    expect(new HookwiseError('x').name).toBe('HookwiseError');
    expect(FILES.filter(({ text }) => /this\.name = '/.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
