import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, millis } from '../envelope.js';
import { hostNamed } from '../../hosts/index.js';

/**
 * The flags of one hook call (`hookwise claude-code`, `hookwise <agent>`), parsed by
 * hand: the spawned process, both residents and the mod's read them the same way.
 */
export interface HookCallFlags {
  config?: string[];
  /** The agent that runs this hook (src/hosts): `hookwise codex` is `hookwise claude-code --agent codex`. */
  agent?: string;
  failOpen?: boolean;
  loadTimeout?: string;
  stallTimeout?: string;
}

export function parseHookCallArgs(args: string[]): HookCallFlags & { badArgument?: string } {
  const flags: HookCallFlags & { badArgument?: string } = { config: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (name: string) => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : args[++i]);
    if (arg === '-c' || arg === '--config' || arg.startsWith('--config=')) flags.config!.push(value('--config') ?? '');
    else if (arg === '--fail-open') flags.failOpen = true;
    else if (arg === '--agent' || arg.startsWith('--agent=')) flags.agent = value('--agent') ?? '';
    // Read by the launcher (src/cli/resident/client.cts) before this process is chosen.
    else if (arg === '--no-resident') continue;
    else if (arg === '--resident-timeout') i++;
    else if (arg.startsWith('--resident-timeout=')) continue;
    else if (arg === '--load-timeout' || arg.startsWith('--load-timeout=')) flags.loadTimeout = value('--load-timeout') ?? '';
    else if (arg === '--stall-timeout' || arg.startsWith('--stall-timeout=')) flags.stallTimeout = value('--stall-timeout') ?? '';
    else flags.badArgument ??= arg;
  }
  return flags;
}

/**
 * How much CPU a hook may burn synchronously. For agents whose own timeout runs the tool
 * the default is a quarter of hookwise's deadline: CPU time runs slower than the clock on
 * a busy machine, and the watchdog must answer before the agent gives up.
 */
export function stallTimeoutOf(flags: HookCallFlags): number {
  let deadline: number | undefined;
  try {
    deadline = hostNamed(flags.agent).deadlineMs;
  } catch {}
  const fallback = deadline ? Math.min(DEFAULT_STALL_TIMEOUT_MS, Math.floor(deadline / 4)) : DEFAULT_STALL_TIMEOUT_MS;
  return millis(flags.stallTimeout ?? process.env.HOOKWISE_STALL_TIMEOUT_MS, '--stall-timeout', fallback);
}

export function loadTimeoutOf(flags: HookCallFlags): number {
  return millis(flags.loadTimeout ?? process.env.HOOKWISE_LOAD_TIMEOUT_MS, '--load-timeout', DEFAULT_LOAD_TIMEOUT_MS);
}
