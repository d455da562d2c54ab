import { compileRegex, escapeRegex, MatcherError } from './regex.js';
import { ensureShellSplitter, splitShellCommand } from './shell-split.js';
import type { HookInput } from './input.js';
import { toolPathGlob } from './path-glob.js';

/**
 * Permission rules (`Bash(git *)`, `Edit(src/**)`, `Read`, `mcp__fs`; docs/model.md,
 * "Matchers") used as the `if` condition of a hook. For Bash, the rule holds when any simple
 * command in the line matches it, so `ls && rm -rf x` is seen by `Bash(rm *)`.
 */
export interface PermissionRule {
  rule: string;
  test(input: HookInput): boolean;
  /** Set when the rule needs the shell parser loaded before it can run. */
  ready?: () => Promise<void>;
}

const FILE_EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const FILE_READ_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS']);

function toolMatches(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool === 'Edit') return FILE_EDIT_TOOLS.has(toolName);
  if (ruleTool === 'Read') return FILE_READ_TOOLS.has(toolName);
  // `mcp__server` covers every tool of that server; `mcp__server__*` too.
  if (ruleTool.startsWith('mcp__')) {
    const prefix = ruleTool.endsWith('__*') ? ruleTool.slice(0, -1) : `${ruleTool}__`;
    return toolName.startsWith(prefix);
  }
  return false;
}

/** `*` matches any run of characters; `cmd:*` (legacy) is a prefix rule. */
function commandPattern(spec: string): (command: string) => boolean {
  const legacyPrefix = spec.endsWith(':*') ? spec.slice(0, -2) : undefined;
  if (legacyPrefix !== undefined) {
    return (cmd) => cmd === legacyPrefix || cmd.startsWith(`${legacyPrefix} `);
  }
  const source = spec.split('*').map(escapeRegex).join('.*');
  // `git *` also matches a bare `git` (docs/model.md, "Matchers").
  const re = compileRegex(spec.endsWith(' *') ? `^(?:${source}|${escapeRegex(spec.slice(0, -2))})$` : `^${source}$`, 's');
  return (cmd) => re.test(cmd);
}

export function parsePermissionRule(rule: string): PermissionRule {
  const m = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!m) throw new MatcherError(`invalid permission rule "${rule}": expected Tool or Tool(pattern), e.g. Bash(git *)`);
  const tool = m[1]!;
  const spec = m[2];
  const toolOk = (input: HookInput) => typeof input.tool_name === 'string' && toolMatches(tool, input.tool_name);
  if (spec === undefined || spec === '' || spec === '*') return { rule, test: toolOk };

  if (tool === 'Bash') {
    const matches = commandPattern(spec);
    return {
      rule,
      ready: ensureShellSplitter,
      test: (input) => {
        if (!toolOk(input)) return false;
        const command = (input.tool_input as { command?: unknown } | undefined)?.command;
        if (typeof command !== 'string') return false;
        if (matches(command.trim())) return true;
        return splitShellCommand(command).some(matches);
      },
    };
  }
  if (tool === 'WebFetch' && spec.startsWith('domain:')) {
    const domain = spec.slice('domain:'.length).toLowerCase();
    return {
      rule,
      test: (input) => {
        if (!toolOk(input)) return false;
        const url = (input.tool_input as { url?: unknown } | undefined)?.url;
        try {
          const host = new URL(String(url)).hostname.toLowerCase();
          return host === domain || host.endsWith(`.${domain}`);
        } catch {
          return false;
        }
      },
    };
  }
  const matchesPath = toolPathGlob(spec);
  return { rule, test: (input) => toolOk(input) && matchesPath(input) };
}
