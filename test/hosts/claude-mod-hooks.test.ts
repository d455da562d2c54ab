import { describe, expect, it } from 'vitest';
import { MOD_LIMIT_MS, MOD_START_LIMIT_MS, modSource } from '../../src/cli/init/mod-source.js';
import { requestMacOf, sealOf } from '../../src/cli/resident/mod-server.js';
import { EVENTS } from '../../src/core/events.js';

/**
 * The mod's hooks module (`hooks/register.js`, docs/claude-code.md#the-mod) run as
 * Claude Code runs it, an ES module given `on`, with a stand-in for Claude Code's `$`
 * whose resident answers under the key the mod handed it. The real Claude Code runs it
 * in `node test/agents/run.mjs --agent claude-code-mod`; here: what it sends and when.
 */
type Hook = ($: unknown, e: Record<string, unknown>, next: Next) => Promise<unknown>;
type Next = ((e: unknown) => Promise<unknown>) & { event: string; error?: Error; called?: boolean };
type Answer = Record<string, unknown> | 'never';

let loads = 0;

/** A fresh copy of the module (its own state), its limit on an answer set to `limitMs`. */
async function loadMod(limitMs = MOD_LIMIT_MS, startLimitMs = MOD_START_LIMIT_MS) {
  const source = modSource({ events: EVENTS })
    .replace(`const LIMIT_MS = ${MOD_LIMIT_MS}`, `const LIMIT_MS = ${limitMs}`)
    .replace(`const START_LIMIT_MS = ${MOD_START_LIMIT_MS}`, `const START_LIMIT_MS = ${startLimitMs}`)
    .concat(`\n// copy ${++loads}\n`);
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as {
    register: (on: (event: string, hook: Hook) => { catch: (fail: Hook) => void }) => void;
  };
  const hooks = new Map<string, { run: Hook; fail?: Hook }>();
  mod.register((event, run) => {
    const entry: { run: Hook; fail?: Hook } = { run };
    hooks.set(event, entry);
    return { catch: (fail) => void (entry.fail = fail) };
  });
  const classic = hooks.get('classic.*')!;
  /** Claude Code firing classic.<event>: the hook's result, or what its .catch answers when it throws. */
  const fire = async (event: string, e: Record<string, unknown>, $: unknown) => {
    const next = Object.assign(async () => ({}), { event: `classic.${event}` }) as Next;
    try {
      return await classic.run($, e, next);
    } catch (error) {
      next.error = error as Error;
      return classic.fail!($, e, next);
    }
  };
  return { fire };
}

/** Claude Code's `$`, its resident answering `answer(input)` (sealed, under the mod's key); what was asked is kept. */
function standIn(answer: (input: Record<string, unknown>) => Answer, startLine = '{"socket":"/stand-in.sock"}') {
  let key = '';
  const sent: Record<string, unknown>[] = [];
  const asked = { sessionId: 0 };
  const $ = {
    env: { set: async () => {} },
    ui: { log: () => {} },
    session: {
      id: async () => {
        asked.sessionId++;
        return 'from-$';
      },
      cwd: async () => '/project',
    },
    process: {
      hookEnv: async () => ({}),
      spawn: ({ input }: { input: string }) => {
        key = input;
        return (async function* () {
          yield { stream: 'stdout', text: `${startLine}\n` };
          await new Promise(() => {}); // the resident runs for the session
        })();
      },
    },
    http: {
      fetch: async (_url: string, { body }: { body: string }) => {
        const { nonce, input, mac } = JSON.parse(body);
        expect(mac).toBe(requestMacOf(key, nonce, input));
        sent.push(JSON.parse(input));
        const answered = answer(JSON.parse(input));
        if (answered === 'never') return new Promise(() => {});
        const reply = JSON.stringify(answered);
        return { ok: true, status: 200, text: JSON.stringify({ reply, seal: sealOf(key, nonce, input, reply) }) };
      },
    },
  };
  return { $, sent, asked };
}

const allow = (unheard?: string[]) => ({ code: 0, stdout: '', ...(unheard && { unheard }) });
const start = { session_id: 's1', cwd: '/project', source: 'startup' };
const bash = { tool: 'Bash', tool_use_id: 't1', command: 'ls' };

describe("the mod's hooks module", () => {
  it('sends PostToolBatch only while the last answer does not list it as unheard', async () => {
    const { fire } = await loadMod();
    let unheard = ['PostToolBatch'];
    const { $, sent } = standIn(() => allow(unheard));
    await fire('SessionStart', start, $);
    await fire('PostToolBatch', { session_id: 's1', tool_calls: [] }, $);
    expect(sent.map((i) => i.hook_event_name)).toEqual(['SessionStart']);
    // A config that gained a PostToolBatch hook: the next answer no longer lists it.
    unheard = [];
    await fire('PreToolUse', bash, $);
    await fire('PostToolBatch', { session_id: 's1', tool_calls: [] }, $);
    expect(sent.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'PreToolUse', 'PostToolBatch']);
  });

  it('sends every event while answers list nothing (a failure answer, an older resident)', async () => {
    const { fire } = await loadMod();
    const { $, sent } = standIn(() => allow());
    await fire('SessionStart', start, $);
    await fire('PostToolBatch', { session_id: 's1', tool_calls: [] }, $);
    expect(sent.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'PostToolBatch']);
  });

  it('gives PreToolUse the session the last event named, asking $ only before any did', async () => {
    const { fire } = await loadMod();
    const { $, sent, asked } = standIn(() => allow());
    await fire('PreToolUse', bash, $);
    expect(sent[0]).toMatchObject({ session_id: 'from-$', cwd: '/project', tool_name: 'Bash', tool_input: { command: 'ls' } });
    await fire('SessionStart', { ...start, session_id: 's2', source: 'clear' }, $);
    await fire('PreToolUse', bash, $);
    expect(sent[2]).toMatchObject({ session_id: 's2', hook_event_name: 'PreToolUse' });
    // A tool's own argument named session_id is the tool's, not the session's.
    await fire('PreToolUse', { ...bash, session_id: 'chosen-by-the-model' }, $);
    await fire('PreToolUse', bash, $);
    expect(sent[3]).toMatchObject({ session_id: 's2', tool_input: { session_id: 'chosen-by-the-model' } });
    expect(sent[4]).toMatchObject({ session_id: 's2' });
    expect(asked.sessionId).toBe(1);
  });

  it('sends the events nobody listens to without waiting for their answer; those it hears wait', async () => {
    const { fire } = await loadMod();
    let refuse = false;
    const { $, sent } = standIn((input) => {
      if (refuse) return { code: 2, stderr: 'NO', unheard: ['Stop'] };
      return input.hook_event_name === 'UserPromptSubmit' ? 'never' : allow(['UserPromptSubmit', 'Stop', 'PostToolBatch']);
    });
    await fire('SessionStart', start, $);
    // No answer ever comes, and the prompt goes on: nobody listens to it. It was sent all the same (recorded).
    expect(await fire('UserPromptSubmit', { session_id: 's1', prompt: 'hi' }, $)).toEqual({});
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit']);
    // A heard event still waits for its answer, and a refusal in it stands.
    refuse = true;
    expect(await fire('PreToolUse', bash, $)).toEqual({ deny: 'NO' });
  });

  it("takes what nobody listens to from the resident's first line: SessionStart does not wait for the policy to load", async () => {
    const line = '{"socket":"/stand-in.sock","unheard":["SessionStart","Stop"]}';
    const told = await loadMod();
    const quick = standIn((input) => (input.hook_event_name === 'PreToolUse' ? allow([]) : 'never'), line);
    expect(await told.fire('SessionStart', start, quick.$)).toEqual({});
    await new Promise((resolve) => setImmediate(resolve));
    expect(quick.sent.map((i) => i.hook_event_name)).toEqual(['SessionStart']);
    // Control: a resident that says nothing as it starts (the policy changed since): SessionStart waits for the answer.
    const untold = await loadMod(MOD_LIMIT_MS, 1000);
    const slow = standIn(() => 'never');
    const fired = untold.fire('SessionStart', start, slow.$);
    const waited = await Promise.race([
      fired.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ]);
    expect(waited).toBe('still waiting');
    // Its own limit ends the wait (SessionStart fails open to the hooks beneath, as before).
    await fired;
  });

  it('takes what nobody listens to from the hearing the last resident left, while every file of the policy is as it was', async () => {
    const hearing = JSON.stringify({
      config: ['/project/hookwise.config.ts'],
      files: [
        ['/project/hookwise.config.ts', '1:10:5', 10, 5],
        ['/project/node_modules/.package-lock.json', 'missing'],
      ],
      unheard: ['SessionStart', 'UserPromptSubmit'],
    });
    /** Claude Code's `$` whose files are `files` (path -> size and mtime); its resident never answers SessionStart. */
    const withFiles = (files: Record<string, { size: number; mtimeMs: number }>) => {
      const stand = standIn((input) => (input.hook_event_name === 'SessionStart' ? 'never' : allow()));
      const fs = {
        read: async (file: string) => {
          if (file !== '/project/.hookwise/cache/mod-hearing.json') throw new Error('ENOENT');
          return hearing;
        },
        stat: async (file: string) => {
          const f = files[file];
          if (f === undefined) throw new Error('ENOENT');
          return { kind: 'file', isLink: false, ...f };
        },
      };
      return {
        ...stand,
        $: { ...stand.$, fs, process: { ...stand.$.process, hookEnv: async () => ({ CLAUDE_PROJECT_DIR: '/project' }) } },
      };
    };
    const same = withFiles({ '/project/hookwise.config.ts': { size: 10, mtimeMs: 5.25 } });
    const told = await loadMod();
    expect(await told.fire('SessionStart', start, same.$)).toEqual({});
    // Control: the config was edited since (another size): SessionStart waits for its answer, up to its limit.
    const edited = withFiles({ '/project/hookwise.config.ts': { size: 11, mtimeMs: 5.25 } });
    const untold = await loadMod(MOD_LIMIT_MS, 1000);
    const fired = untold.fire('SessionStart', start, edited.$);
    const waited = await Promise.race([
      fired.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ]);
    expect(waited).toBe('still waiting');
    await fired;
  });

  it('starts no resident for SessionEnd, and waits on none (Claude Code ends the resident as it shuts down)', async () => {
    const { fire } = await loadMod();
    let spawned = 0;
    const stand = standIn(() => 'never');
    const $ = {
      ...stand.$,
      process: {
        ...stand.$.process,
        spawn: (how: { input: string }) => {
          spawned++;
          return stand.$.process.spawn(how);
        },
      },
    };
    expect(await fire('SessionEnd', { session_id: 's1', reason: 'other' }, $)).toEqual({});
    expect(spawned).toBe(0);
    // With a resident running, SessionEnd is sent to it, and its answer (never, here) is not waited for.
    const running = await loadMod();
    const live = standIn((input) => (input.hook_event_name === 'SessionEnd' ? 'never' : allow()));
    await running.fire('SessionStart', start, live.$);
    expect(await running.fire('SessionEnd', { session_id: 's1', reason: 'other' }, live.$)).toEqual({});
    await new Promise((resolve) => setImmediate(resolve));
    expect(live.sent.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'SessionEnd']);
  });

  it("refuses the call when the resident does not answer within the mod's limit", async () => {
    const { fire } = await loadMod(50);
    const { $ } = standIn((input) => (input.hook_event_name === 'PreToolUse' ? 'never' : allow()));
    await fire('SessionStart', start, $);
    expect(await fire('PreToolUse', bash, $)).toEqual({ deny: 'hookwise failed closed: hookwise did not answer within 50 ms' });
  });
});

describe('a resident that ends before it serves', () => {
  /** Claude Code's `$` whose resident writes `stderr` and ends. */
  const ending = (stderr: string) => ({
    ...standIn(() => allow()).$,
    process: {
      hookEnv: async () => ({}),
      spawn: () =>
        (async function* () {
          yield { stream: 'stderr', text: stderr };
        })(),
    },
  });

  it.each([
    [
      'a crash: the error Node printed, not its closing banner',
      "/x/y.js:1\nthrow new Error('boom')\n^\n\nError: boom-4d1\n    at x (/x/y.js:1:7)\n\nNode.js v20.20.2\n",
      /the hookwise resident ended: Error: boom-4d1/,
    ],
    [
      'its own reason',
      '2026-01-01T00:00:00.000Z hookwise resident 7: not starting: hookwise is not installed in this project\n',
      /the hookwise resident ended: not starting: hookwise is not installed in this project/,
    ],
  ])('refuses the call, saying why it ended: %s', async (_name, stderr, why) => {
    const { fire } = await loadMod();
    const refused = JSON.stringify(await fire('PreToolUse', bash, ending(stderr)));
    expect(refused).toMatch(why);
    expect(refused).toMatch(/"deny":"hookwise failed closed: /);
    expect(refused).not.toMatch(/Node\.js v20/);
  });
});
