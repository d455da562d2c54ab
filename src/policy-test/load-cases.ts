import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkEvent, EventNameError } from '../compat/event-aliases.js';
import type { PolicyCase, PolicyExpectation, PolicyTestFile } from './define.js';
import { PolicyTestError } from './errors.js';

/** A test file as loaded: its cases, validated, and the policy sources it names (absolute). */
export interface LoadedTestFile {
  file: string;
  format: 'yaml' | 'json' | 'ts';
  policy: string[] | undefined;
  cases: PolicyCase[];
}

const TEST_FILE = /\.policy-test\.(ya?ml|json|ts|mts|mjs|js)$/;
const EXPECT_FIELDS = new Set(['decision', 'blocked', 'reason', 'updatedInput', 'additionalContext', 'hook']);
const DECISIONS = new Set(['allow', 'deny', 'ask', 'defer', null]);

/** The test files named (files as they are, folders searched for `*.policy-test.*`), in a stable order. */
export function findTestFiles(paths: string[], cwd: string): string[] {
  const found: string[] = [];
  for (const given of paths.length ? paths : ['.']) {
    const abs = path.resolve(cwd, given);
    if (!existsSync(abs))
      throw new PolicyTestError(abs, 'no such file or folder; name a *.policy-test.{yaml,json,ts} file or a folder holding some');
    if (statSync(abs).isDirectory()) found.push(...walk(abs));
    else found.push(abs);
  }
  return [...new Set(found)];
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(p));
    else if (TEST_FILE.test(entry.name)) out.push(p);
  }
  return out;
}

export async function loadTestFile(file: string): Promise<LoadedTestFile> {
  const format = /\.ya?ml$/.test(file) ? 'yaml' : file.endsWith('.json') ? 'json' : 'ts';
  let data: unknown;
  try {
    if (format === 'ts') {
      const { importTypeScript } = await import('../config/module-cache.js');
      data = ((await importTypeScript(file)) as { default?: unknown }).default;
    } else {
      const text = readFileSync(file, 'utf8');
      data = format === 'json' ? JSON.parse(text) : (await import('yaml')).parse(text);
    }
  } catch (error) {
    throw new PolicyTestError(file, `could not be read: ${firstLine(error)}`);
  }
  return { file, format, ...validate(file, data) };
}

function validate(file: string, data: unknown): Omit<LoadedTestFile, 'file' | 'format'> {
  if (!isObject(data))
    throw new PolicyTestError(file, 'expected an object with `cases: [...]` (TypeScript: export default definePolicyTest({...}))');
  const { policy, cases } = data as Partial<PolicyTestFile>;
  if (policy !== undefined && (!Array.isArray(policy) || policy.some((p) => typeof p !== 'string')))
    throw new PolicyTestError(file, 'expected a list of config files, relative to this file', 'policy');
  if (!Array.isArray(cases) || cases.length === 0) throw new PolicyTestError(file, 'expected a non-empty list of cases', 'cases');
  return {
    policy: policy?.map((p) => path.resolve(path.dirname(file), p)),
    cases: cases.map((c, i) => validateCase(file, c, `cases[${i}]`)),
  };
}

function validateCase(file: string, c: unknown, at: string): PolicyCase {
  if (!isObject(c)) throw new PolicyTestError(file, 'expected an object with name, event, input and expect', at);
  if (typeof c.name !== 'string' || c.name === '') throw new PolicyTestError(file, 'expected a name (text)', `${at}.name`);
  if (typeof c.event !== 'string') throw new PolicyTestError(file, 'expected an event name, e.g. PreToolUse', `${at}.event`);
  try {
    checkEvent(c.event);
  } catch (error) {
    if (error instanceof EventNameError) throw new PolicyTestError(file, error.message, `${at}.event`);
    throw error;
  }
  if (c.input !== undefined && !isObject(c.input))
    throw new PolicyTestError(file, 'expected an object (the input the host sends)', `${at}.input`);
  if (!isObject(c.expect))
    throw new PolicyTestError(file, `expected an object with one or more of ${[...EXPECT_FIELDS].join(', ')}`, `${at}.expect`);
  for (const key of Object.keys(c.expect))
    if (!EXPECT_FIELDS.has(key))
      throw new PolicyTestError(file, `unknown expectation; expected one of ${[...EXPECT_FIELDS].join(', ')}`, `${at}.expect.${key}`);
  const e = c.expect as PolicyExpectation;
  if ('decision' in e && !DECISIONS.has(e.decision as string))
    throw new PolicyTestError(file, 'expected allow, deny, ask, defer or null', `${at}.expect.decision`);
  return c as unknown as PolicyCase;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];
