import type { Outcome } from '../core/outcome.js';
import type { PolicyCase } from './define.js';
import { answersOf, mismatchesOf, type Mismatch } from './expect.js';
import { hostInput } from './host-input.js';
import { loadPolicy } from './load-policy.js';
import { loadTestFile, type LoadedTestFile } from './load-cases.js';
import { PolicyTestError } from './errors.js';

export interface CaseResult {
  file: string;
  index: number;
  case: PolicyCase;
  outcome: Outcome;
  mismatches: Mismatch[];
  /** Milliseconds the fire took (for JUnit's `time`). */
  ms: number;
}

export interface FileResult {
  loaded: LoadedTestFile;
  /** The config files the cases ran against. */
  sources: string[];
  cases: CaseResult[];
  /** Hooks of the policy no case of this file ran (their matcher never selected them). */
  unexercised: Array<{ name: string; source: string | undefined }>;
}

/** Run every case of each file against its policy (loaded once per file, as a host loads it). */
export async function runTestFiles(files: string[], projectDir: string): Promise<FileResult[]> {
  const results: FileResult[] = [];
  for (const file of files) results.push(await runTestFile(await loadTestFile(file), projectDir));
  return results;
}

/**
 * `projectDir`: the project the cases run in (the host's cwd and the guards'
 * workspace), where the policy is found when the file names none.
 */
export async function runTestFile(loaded: LoadedTestFile, projectDir: string): Promise<FileResult> {
  const { engine, config } = await loadPolicy({ files: loaded.policy, cwd: projectDir });
  if (config.sources.length === 0)
    throw new PolicyTestError(
      loaded.file,
      `no policy found in ${projectDir}; run hookwise test from the project folder, or name the config files`,
      'policy',
    );
  const exercised = new Set<string>();
  const cases: CaseResult[] = [];
  for (const [index, c] of loaded.cases.entries()) {
    const input = hostInput(c.event, (c.input ?? {}) as Record<string, unknown>, { projectDir }, index);
    const started = performance.now();
    const outcome = await engine.fire(c.event, input, { projectDir, dryRun: true });
    const ms = performance.now() - started;
    for (const h of outcome.hooks) if (h.status !== 'skipped') exercised.add(h.name);
    cases.push({ file: loaded.file, index, case: c, outcome, mismatches: mismatchesOf(c.expect, outcome), ms });
  }
  await engine.drain();
  const unexercised = config.hooks.filter((h) => !exercised.has(h.name)).map((h) => ({ name: h.name, source: h.source }));
  return { loaded, sources: config.sources.map((s) => s.file), cases, unexercised };
}

/** The answers the policy gives now, for `--update`. */
export { answersOf };
