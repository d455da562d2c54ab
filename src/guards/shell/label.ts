import type { Arg } from './args.js';

/** Options a label shows: enough to say what the command does, short enough for a reason. */
const MAX_OPTIONS = 3;
/** A longer word (a JSON body, a script) is cut: the reason quotes the command, it does not repeat it. */
const MAX_WORD = 40;

const isOption = (a: Arg) => a.value !== undefined && a.value.length > 1 && a.value.startsWith('-');

/**
 * How a reason quotes a command (`Invocation.label`): its name and its first options as
 * written, with the values between them (`curl -s -X POST --data @file`), never the
 * options alone (`curl -s -X --data` reads as another command). The word after the last
 * option shown is kept when that option is long (`--data @file`, `--output f`): a short
 * one is too often a switch before an operand the reason names itself (`rm -rf ~` targets ~).
 */
export function invocationLabel(name: string, args: readonly Arg[]): string {
  const shown: string[] = [name];
  let between: string[] = [];
  let options = 0;
  let last = -1;
  for (let i = 0; i < args.length && options < MAX_OPTIONS; i++) {
    if (!isOption(args[i]!)) {
      between.push(asWritten(args[i]!));
      continue;
    }
    shown.push(...between, asWritten(args[i]!));
    between = [];
    options++;
    last = i;
  }
  const option = args[last]?.value;
  const next = args[last + 1];
  if (option?.startsWith('--') && option !== '--' && !option.includes('=') && next && !isOption(next)) shown.push(asWritten(next));
  return shown.join(' ');
}

function asWritten(arg: Arg): string {
  const text = arg.text.replace(/`/g, "'");
  return text.length > MAX_WORD ? `${text.slice(0, MAX_WORD - 1)}…` : text;
}
