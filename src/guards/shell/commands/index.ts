import type { Handler } from '../types.js';
import { interpreter } from './code.js';
import { system } from './system.js';
import './files.js';
import './tools.js';
import './git.js';
import './network.js';
import './escapes.js';

export { COMMANDS } from './registry.js';
export { genericChecks } from './generic.js';

/** Handlers chosen by a name pattern (python3.12, mkfs.ext4, ...). */
export function handlerFor(name: string): Handler | undefined {
  if (
    /^(python|pypy)[\d.]*$/.test(name) ||
    /^(perl|ruby|php|lua|luajit)[\d.]*$/.test(name) ||
    ['node', 'nodejs', 'deno', 'bun', 'rscript', 'osascript', 'irb', 'jshell', 'tclsh', 'wish', 'expect'].includes(name)
  )
    return interpreter;
  if (/^mkfs(\..+)?$/.test(name)) return system;
  return undefined;
}
