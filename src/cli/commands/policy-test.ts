import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';

interface TestFlags {
  reporter?: string;
  update?: boolean;
  output?: string;
}

/** Exit status of `hookwise test`, `replay` and `explain` when a file, flag or policy cannot be used. */
export const USAGE_EXIT = 2;

export function definePolicyTest(program: Command, setExit: SetExit): void {
  program
    .command('test')
    .description('Run policy tests (*.policy-test.{yaml,json,ts}) against the policy as hosts load it; docs/testing.md')
    .argument('[paths...]', 'test files, or folders to search for *.policy-test.* (default: the current folder)')
    .option('--reporter <name>', 'text (default) or junit (JUnit XML on stdout)', 'text')
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option('-u, --update', 'write the answers the policy gives now into the cases (YAML, JSON), for review')
    .addHelpText('after', '\nExit status: 0 every case passed, 1 a case failed, 2 a test file, flag or policy could not be used.')
    .action(async (paths: string[], flags: TestFlags) => setExit(await runTests(paths, flags)));
}

async function runTests(paths: string[], flags: TestFlags): Promise<number> {
  const { failedCount, findTestFiles, junitReport, runTestFiles, textReport, updateCases } = await import('../../policy-test/index.js');
  const cwd = process.cwd();
  return usageErrors(async () => {
    if (flags.reporter !== 'text' && flags.reporter !== 'junit')
      throw new UserError(`--reporter: unknown reporter "${flags.reporter}"; expected text or junit`);
    const files = findTestFiles(paths, cwd);
    if (files.length === 0)
      throw new UserError(
        `no *.policy-test.{yaml,json,ts} files under ${paths.join(', ') || cwd}; name one, or write one (docs/testing.md)`,
      );
    const results = await runTestFiles(files, cwd);
    if (flags.update) {
      for (const r of results) {
        const n = await updateCases(r);
        if (n) process.stderr.write(`hookwise: updated ${n} case${n === 1 ? '' : 's'} in ${r.loaded.file}; review the diff\n`);
      }
      return 0;
    }
    const report = flags.reporter === 'junit' ? junitReport(results, cwd) : textReport(results, cwd);
    if (flags.output) (await import('node:fs')).writeFileSync(flags.output, report);
    else process.stdout.write(report);
    if (flags.output && flags.reporter === 'junit') process.stdout.write(textReport(results, cwd));
    return failedCount(results) > 0 ? 1 : 0;
  });
}

/** Anything that stops the run before a verdict (a missing file, a bad case, a policy that fails to load) is one line and exit 2. */
export async function usageErrors(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`hookwise: ${message.split('\n')[0]}\n`);
    return USAGE_EXIT;
  }
}
