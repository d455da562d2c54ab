import type { HookInput } from '../core/input.js';
import { defineHook, type MultiEventHook } from '../core/hook.js';
import { context, deny, stop, systemMessage, type HookResult } from '../core/results.js';
import type { HookContext } from '../core/spec.js';
import { Checkpoints, type Change, type KeepLimits, type Step } from '../checkpoints/index.js';
import { ParsedScripts } from '../shell/parsed.js';
import { loadBashParser, type Parser } from '../shell/parser.js';
import { changeRecord, lossMessage } from './checkpoint/words.js';
import { provesReadOnly, readsOnly } from './checkpoint/read-only.js';
import { DEFAULT_GUARD_PRIORITY, perWorkspace, workspaceOf, type CommonGuardOptions } from './common.js';
import { READ_TOOLS } from './path-guard.js';
import { GuardOptionError } from './errors.js';

export interface CheckpointGuardOptions extends Omit<CommonGuardOptions, 'interactive'> {
  /** Tools that only read, beside the built-in ones (Read, Glob, Grep, LS, web search and fetch, todos). */
  readTools?: string[];
  /** Shell tools whose `tool_input.command` the parser may prove read-only. Default `['Bash']`. */
  shellTools?: string[];
  /** How much history to keep: steps and bytes (docs/security.md#undo). */
  keep?: KeepLimits;
  /**
   * After a step that took work git cannot give back: `tell` the model and the person
   * (default), `ask` (stop the agent until a person has looked), or `deny` (undo the step
   * at once and tell the model).
   */
  onLoss?: 'tell' | 'ask' | 'deny';
}

const NEVER_WRITES = [...READ_TOOLS, 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'ExitPlanMode', 'AskUserQuestion'];
const AFTER = new Set(['PostToolUse', 'PostToolUseFailure']);

/**
 * Every step that can write starts from a checkpoint: the workspace's files (those git
 * would not ignore) and its `.git` folder, kept in hookwise's state folder, so that
 * `hookwise undo` puts back what any step took, however it was spelled. After the step
 * its change set goes on the record, and a loss git could not have restored is told
 * (docs/security.md#undo). A step the parser proves read-only needs no checkpoint.
 */
export function checkpointGuard(options: CheckpointGuardOptions = {}): MultiEventHook<'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure'> {
  const onLoss = options.onLoss ?? 'tell';
  if (!['tell', 'ask', 'deny'].includes(onLoss)) {
    throw new GuardOptionError(`checkpointGuard: onLoss must be 'tell', 'ask' or 'deny', got ${JSON.stringify(onLoss)}`);
  }
  const readers = new Set([...NEVER_WRITES, ...(options.readTools ?? [])]);
  const shells = new Set(options.shellTools ?? ['Bash']);
  const stores = perWorkspace((workspace) => new Checkpoints(workspace, { keep: options.keep }));
  const scripts = new ParsedScripts();
  let parser: Parser | undefined;

  const readOnly = async (input: HookInput): Promise<boolean> => {
    const command = input.tool_input?.command;
    if (!shells.has(input.tool_name as string) || typeof command !== 'string') return false;
    parser ??= await loadBashParser();
    return provesReadOnly(parser, scripts, command);
  };

  const before = async (input: HookInput, ctx: HookContext): Promise<HookResult | undefined> => {
    const workspace = workspaceOf(options.workspace, input, ctx);
    if (ctx.dryRun) return undefined;
    if (workspace === undefined)
      return deny('hookwise cannot take a checkpoint before this step: it has no workspace (no project folder from the host)');
    if (await readOnly(input)) {
      ctx.annotate({ checkpoint: 'read-only' });
      return undefined;
    }
    try {
      const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined;
      const step = await stores(workspace).begin({
        session: ctx.sessionId,
        tool: String(input.tool_name),
        what: whatOf(input),
        ...(toolUseId && { toolUseId }),
      });
      ctx.annotate({ checkpoint: step.n });
      return undefined;
    } catch (error) {
      return deny(`hookwise could not take a checkpoint before this step, so it did not run: ${(error as Error).message}`);
    }
  };

  const after = async (input: HookInput, ctx: HookContext): Promise<HookResult | undefined> => {
    const workspace = workspaceOf(options.workspace, input, ctx);
    if (workspace === undefined || ctx.dryRun) return undefined;
    const store = stores(workspace);
    const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined;
    const open = store.openStep(ctx.sessionId, String(input.tool_name), toolUseId);
    if (open === undefined) return undefined;
    const { changes, lost } = await store.end(open);
    ctx.annotate({ step: open.n, changes: changeRecord(changes, lost) });
    // What the repository had that the step changed or took: new objects and refs take nothing.
    const repository = (await byGitAlone(open)) ? [] : changes.filter((c) => c.path.startsWith('.git/') && c.status !== 'added');
    if (lost.length === 0 && repository.length === 0) return undefined;
    return answerLoss(onLoss, open, lost, repository, store);
  };

  /** Whether every program the step ran was git itself, which may change .git as it likes, or a reader (`git status | sort`). */
  const byGitAlone = async (step: Step): Promise<boolean> => {
    if (!shells.has(step.tool)) return false;
    parser ??= await loadBashParser();
    try {
      return scripts.use(
        parser,
        step.what,
        (s) =>
          s.problems.length === 0 &&
          s.commands.some((c) => c.words[0]?.text === 'git') &&
          s.commands.every((c) => c.words[0]?.text === 'git' || readsOnly(c)),
      );
    } catch {
      return false;
    }
  };

  return defineHook({
    name: options.name ?? 'guard:checkpoint',
    events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    matcher: (input: HookInput) => typeof input.tool_name === 'string' && !readers.has(input.tool_name),
    // Before the shell guard's last word, which wraps the command in the sandbox: the step is named as the agent asked it.
    priority: options.priority ?? DEFAULT_GUARD_PRIORITY + 1,
    onError: 'block',
    statusMessage: 'hookwise: keeping a checkpoint',
    handler: (input, ctx) => (AFTER.has(input.hook_event_name ?? '') ? after(input, ctx) : undefined),
    last: (input, ctx) => (input.hook_event_name === 'PreToolUse' ? before(input, ctx) : undefined),
  });
}

async function answerLoss(onLoss: 'tell' | 'ask' | 'deny', step: Step, lost: string[], repository: Change[], store: Checkpoints) {
  const message = lossMessage(step.n, lost, repository);
  if (onLoss === 'ask') return stop(`${message} A person decides before the agent goes on.`);
  if (onLoss === 'deny') {
    await store.undo({ to: step.n });
    const undone = `hookwise: step ${step.n} took work git cannot restore, so hookwise undid it: the workspace is as it was before the step.`;
    return context(undone, { systemMessage: undone });
  }
  return systemMessage(message, { additionalContext: message });
}

/** The step as the timeline shows it: the command, or the tool and the file it writes. */
function whatOf(input: HookInput): string {
  const toolInput = input.tool_input ?? {};
  if (typeof toolInput.command === 'string') return toolInput.command;
  for (const field of ['file_path', 'notebook_path', 'path']) {
    if (typeof toolInput[field] === 'string') return toolInput[field] as string;
  }
  return JSON.stringify(toolInput).slice(0, 500);
}
