import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShellJudge, type ShellJudge } from '../../src/guards/index.js';
import { DANGEROUS, HARMLESS } from './shell-corpus.js';
import { fill, makeFixture, type Fixture } from './fixture.js';

// Made at load time: the generators below need the real paths.
const f: Fixture = makeFixture();
let judge: ShellJudge;

beforeAll(async () => {
  judge = await loadShellJudge({ workspace: f.ws, home: f.home, sandbox: 'off' });
});
afterAll(() => f.cleanup());

const decide = (command: string) => judge.judge(command, f.ws);
const oneLine = (c: string) => !c.includes('\n');
const isSimple = (c: string) => oneLine(c) && !/[;&|()<>`{}]|\$\(/.test(c) && /^[a-z][\w.-]*(\s|$)/.test(c);

const allowed = HARMLESS.map((c) => fill(c.command, f));
// A comment would swallow whatever is chained after it.
const allowedOneLine = allowed.filter((c) => oneLine(c) && !c.includes('#'));
const denied = DANGEROUS.map((c) => ({ command: fill(c.command, f), expect: c.expect }));
const deniedSimple = denied.filter((c) => isSimple(c.command) && !c.command.split(' ')[0]!.includes('='));

/** Contexts that do not change what a command does. */
const contexts: Array<{ name: string; wrap: (c: string) => string; applies: (c: string) => boolean }> = [
  { name: 'subshell', wrap: (c) => `( ${c}\n)`, applies: () => true },
  { name: 'group', wrap: (c) => `{ ${c}\n}`, applies: () => true },
  { name: 'after echo &&', wrap: (c) => `echo start && ${c}`, applies: () => true },
  { name: 'after true;', wrap: (c) => `true; ${c}`, applies: () => true },
  { name: 'if', wrap: (c) => `if true; then ${c}\nfi`, applies: () => true },
  { name: 'trailing comment', wrap: (c) => `${c} # checked`, applies: oneLine },
  { name: 'stderr to /dev/null', wrap: (c) => `${c} 2>/dev/null`, applies: oneLine },
  { name: 'then echo', wrap: (c) => `${c}; echo done`, applies: oneLine },
  { name: 'time', wrap: (c) => `time ${c}`, applies: isSimple },
  { name: 'nice', wrap: (c) => `nice -n 5 ${c}`, applies: isSimple },
  { name: 'timeout', wrap: (c) => `timeout 30 ${c}`, applies: isSimple },
  { name: 'bash -c', wrap: (c) => `bash -c '${c}'`, applies: (c) => oneLine(c) && !c.includes("'") },
];

describe('an allowed command stays allowed in harmless context', () => {
  it('holds for random stacks of contexts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...allowed), fc.array(fc.nat(contexts.length - 1), { minLength: 1, maxLength: 3 }), (command, picks) => {
        let wrapped = command;
        for (const i of picks) if (contexts[i]!.applies(wrapped)) wrapped = contexts[i]!.wrap(wrapped);
        const d = decide(wrapped);
        expect(d.decision, `${JSON.stringify(wrapped)}: ${d.reason}`).toBe('allow');
      }),
      { numRuns: 300 },
    );
  });
});

function expectRefused(command: string, expectation: 'deny' | 'not-allow' | 'allow'): void {
  const d = decide(command);
  if (expectation === 'deny') expect(d.decision, `${JSON.stringify(command)}: ${d.reason}`).toBe('deny');
  else expect(d.decision, JSON.stringify(command)).not.toBe('allow');
}

describe('a denied command stays denied', () => {
  it('when chained after any allowed command', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...allowedOneLine),
        fc.constantFrom(' && ', '; ', ' || ', ' | ', '\n', ' & '),
        fc.constantFrom(...denied),
        (before, sep, bad) => {
          expectRefused(`${before}${sep}${bad.command}`, bad.expect);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('when prefixed with wrappers or variable assignments', () => {
    // Assignments only mean assignments before the first word.
    const assignments = ['', 'FOO=1 ', 'A=x B=y '];
    const wrappers = [
      'env ',
      'command ',
      'nice -n 5 ',
      'timeout 10 ',
      'nohup ',
      'time ',
      'sudo ',
      'exec ',
      'stdbuf -oL ',
      'setsid ',
      'env -u X ',
      'env FOO=1 ',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...assignments),
        fc.array(fc.constantFrom(...wrappers), { minLength: 0, maxLength: 3 }),
        fc.constantFrom(...deniedSimple),
        (assign, stack, bad) => {
          fc.pre(assign !== '' || stack.length > 0);
          expectRefused(`${assign}${stack.join('')}${bad.command}`, bad.expect);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('when quoted differently', () => {
    const requotable = deniedSimple.filter((c) => /^[\w./~=:@,+-]+( [\w./~=:@,+-]+)*$/.test(c.command));
    expect(requotable.length).toBeGreaterThan(20);
    const styles = [
      (w: string) => w,
      (w: string) => `"${w}"`,
      (w: string) => `'${w}'`,
      (w: string) => (w.length > 1 ? `${w[0]}''${w.slice(1)}` : w),
      (w: string) => `\\${w}`,
      (w: string) => (w.length > 1 ? `${w[0]}"${w.slice(1)}"` : w),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...requotable), fc.array(fc.nat(styles.length - 1), { minLength: 8, maxLength: 8 }), (bad, picks) => {
        const words = bad.command.split(' ');
        const requoted = words.map((w, i) => (/[*?[\]{}]/.test(w) ? w : styles[picks[i % picks.length]!]!(w))).join(' ');
        expectRefused(requoted, bad.expect);
      }),
      { numRuns: 400 },
    );
  });
});
