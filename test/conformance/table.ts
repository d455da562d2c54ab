/**
 * One policy (test/fixtures/conformance/policy.config.mjs), one table: for each
 * tool call, what every host must do. A host that differs fails its row.
 * The tool is an echo: it returns `text`.
 */
export interface Expected {
  /** The tool ran, with this `text`. */
  ran: string | null;
  /** What the model (or MCP client) reads as the tool result contains this. */
  seen?: string;
  /** The agent stopped: no further model call. */
  stopped: boolean;
}

export interface Row {
  name: string;
  input: { text: string; mode: string };
  expect: Expected;
  /** Where a host cannot do what the others do, what it does instead (and docs/claude-code.md says why). */
  except?: Record<string, Expected>;
}

export const TABLE: Row[] = [
  { name: 'no opinion: runs unchanged', input: { text: 'hi', mode: 'none' }, expect: { ran: 'hi', seen: 'hi', stopped: false } },
  {
    name: 'deny: not run, the reason is the result',
    input: { text: 'hi', mode: 'deny' },
    expect: { ran: null, seen: 'denied by policy', stopped: false },
  },
  {
    name: 'block without a decision: a deny',
    input: { text: 'hi', mode: 'block' },
    expect: { ran: null, seen: 'blocked by policy', stopped: false },
  },
  { name: 'Claude Code JSON deny', input: { text: 'hi', mode: 'cc-deny' }, expect: { ran: null, seen: 'cc says no', stopped: false } },
  {
    name: 'modify: runs with the rewrite',
    input: { text: 'hi', mode: 'modify' },
    expect: { ran: 'rewritten', seen: 'rewritten', stopped: false },
  },
  {
    name: 'Claude Code JSON allow + updatedInput',
    input: { text: 'hi', mode: 'cc-modify' },
    expect: { ran: 'cc rewritten', seen: 'cc rewritten', stopped: false },
  },
  {
    name: 'replaced output: the result is the replacement',
    input: { text: 'hi', mode: 'replace' },
    expect: { ran: 'hi', seen: 'replaced output', stopped: false },
  },
  {
    name: 'Claude Code JSON updatedMCPToolOutput',
    input: { text: 'hi', mode: 'cc-replace' },
    expect: { ran: 'hi', seen: 'cc replaced', stopped: false },
  },
  {
    name: 'context from PreToolUse: runs, and the model reads the context beside the result',
    input: { text: 'hi', mode: 'context' },
    expect: { ran: 'hi', seen: 'PRE-CONTEXT-4d1', stopped: false },
  },
  { name: 'ask with nobody to ask: not run', input: { text: 'hi', mode: 'ask' }, expect: { ran: null, stopped: false } },
  {
    name: 'stop before the tool',
    input: { text: 'hi', mode: 'stop' },
    expect: { ran: null, stopped: true },
    // Claude Code reads a refusal with `continue: false` on PreToolUse as the refusal alone: the call is still refused.
    except: { 'claude-code': { ran: null, stopped: false } },
  },
  {
    name: 'Claude Code JSON continue:false: the call runs, then the run ends',
    input: { text: 'hi', mode: 'cc-stop' },
    expect: { ran: 'hi', stopped: true },
  },
  { name: 'stop after the tool', input: { text: 'hi', mode: 'post-stop' }, expect: { ran: 'hi', stopped: true } },
];

/** What a host did with one call. */
export interface Observed {
  ran: string | null;
  seen: string;
  stopped: boolean;
}
