import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookContext } from '../../src/core/spec.js';
import { slack } from '../support/slack.js';

export const SCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/scripts');
export const script = (name: string): string => path.join(SCRIPTS, name);

/** The three languages the respond fixture exists in, as a shell line and as exec form. */
export const RESPONDERS = [
  { lang: 'bash', shell: `bash ${script('respond.sh')}`, program: 'bash', args: [script('respond.sh')] },
  { lang: 'python3', shell: `python3 ${script('respond.py')}`, program: 'python3', args: [script('respond.py')] },
  { lang: 'node', shell: `node ${script('respond.mjs')}`, program: 'node', args: [script('respond.mjs')] },
] as const;

export interface TestContext extends HookContext {
  annotations: Record<string, unknown>;
  controller: AbortController;
}

/** A HookContext for calling a handler directly, outside the engine. */
export function makeContext(overrides: Partial<{ sessionId: string; cwd: string }> = {}): TestContext {
  const controller = new AbortController();
  const annotations: Record<string, unknown> = {};
  const state = new Map<string, unknown>();
  return {
    signal: controller.signal,
    controller,
    sessionId: overrides.sessionId ?? 'test-session',
    cwd: overrides.cwd ?? process.cwd(),
    // As the engine gives them when the fire names no project, environment or counters.
    projectDir: undefined,
    dryRun: false,
    env: {},
    counters: undefined,
    state: state as unknown as HookContext['state'],
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    hookName: 'test-hook',
    annotations,
    annotate(fields) {
      Object.assign(annotations, fields);
    },
  };
}

/**
 * Whether a process exists. A grandchild whose parent died is re-parented to
 * PID 1, and reaping it is PID 1's job: in some containers PID 1 never reaps, so
 * for grandchildren (`zombieIsDead`) a zombie counts as dead. Our own direct
 * children must be fully gone (node reaps them).
 */
export function isAlive(pid: number, zombieIsDead = false): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!zombieIsDead) return true;
  const stat = `/proc/${pid}/stat`;
  if (existsSync(stat)) {
    const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
    if (state === 'Z' || state === 'X') return false;
  }
  return true;
}

/** Polls until the process is gone; returns whether it went within the bound. */
export async function waitGone(pid: number, zombieIsDead = false, boundMs = slack(5000)): Promise<boolean> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    if (!isAlive(pid, zombieIsDead)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !isAlive(pid, zombieIsDead);
}

export async function waitForFile(file: string, boundMs = slack(5000)): Promise<string> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.endsWith('\n')) return text;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} did not appear within ${boundMs} ms`);
}
