import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AnyHook, asHook, CORE_EVENTS, HookEngine, type RawHookInput } from '../../src/index.js';
import type { AuditRecord, AuditSink } from '../../src/audit/types.js';
import { scriptedProvider, type ScriptTurn } from '../../src/providers/scripted.js';
import { builtinTools, createAgent, type AgentOptions, type RunResult, type RuntimeEvent } from '../../src/runtime/index.js';

/** A real temporary folder, removed by `cleanup`. */
export function tempDir(prefix = 'hookwise-rt-'): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

export interface Fired {
  event: string;
  /** As the runtime sent it: any event's fields, read as data. */
  input: RawHookInput;
}

/** An audit sink that keeps records in memory. */
export class MemoryAudit implements AuditSink {
  records: AuditRecord[] = [];
  flushes = 0;
  append(record: AuditRecord): void {
    this.records.push(record);
  }
  async flush(): Promise<void> {
    this.flushes++;
  }
  async close(): Promise<void> {}
}

export interface Harness {
  workspace: string;
  transcriptDir: string;
  engine: HookEngine;
  /** What each fire's hooks saw, in order (recorded by a hook that runs first). */
  fired: Fired[];
  events: RuntimeEvent[];
  audit: MemoryAudit;
  run(turns: ScriptTurn[], prompt?: string, options?: Partial<AgentOptions>): Promise<RunResult>;
  names(): string[];
  inputsOf(event: string): RawHookInput[];
  cleanup(): void;
}

/** A workspace, an engine with a recorder on every core event, and a runner with the built-in tools. */
export function harness(hooks: AnyHook[] = []): Harness {
  const workspace = tempDir();
  const transcriptDir = tempDir('hookwise-tr-');
  const engine = new HookEngine();
  const fired: Fired[] = [];
  const events: RuntimeEvent[] = [];
  const audit = new MemoryAudit();
  // CORE_EVENTS is a list of strings: the recorder is registered untyped and reads any input.
  engine.register(
    asHook({
      name: 'recorder',
      events: [...CORE_EVENTS],
      priority: 1_000_000,
      handler: (input) => {
        fired.push({ event: input.hook_event_name!, input: structuredClone(input) });
        return undefined;
      },
    }),
  );
  for (const hook of hooks) engine.register(hook);
  return {
    workspace,
    transcriptDir,
    engine,
    fired,
    events,
    audit,
    run: (turns, prompt = 'do the task', options = {}) =>
      createAgent({
        provider: scriptedProvider(turns),
        tools: builtinTools(workspace, { shell: { timeoutMs: 10_000 } }),
        hooks: engine,
        cwd: workspace,
        transcriptDir,
        audit,
        onEvent: (e) => events.push(e),
        ...options,
      }).run(prompt),
    names: () => fired.map((f) => f.event),
    inputsOf: (event) => fired.filter((f) => f.event === event).map((f) => f.input),
    cleanup: () => {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(transcriptDir, { recursive: true, force: true });
    },
  };
}
