/**
 * Gemini CLI 0.61.0 refuses to run a shell command that has command substitution
 * (`$(…)`, backticks, `<(…)`, `>(…)`) outside single quotes, after the hooks have run
 * ("Command injection detected"). hookwise's own rewrites have it (the sandboxed line
 * captures the folder the command ended in), so a rewrite is delivered as
 * `eval '<line>'`, which runs the same line in the same shell and which Gemini's check
 * reads as quoted text. A model's command Gemini would refuse stays refused: wrapping
 * it would take Gemini's own guard away.
 */
export function hasCommandSubstitution(command: string): boolean {
  // Gemini's detectBashSubstitution, read from its bundle: quotes toggle, a backslash skips the next character.
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    else if (single) continue;
    else if (c === '\\' && i + 1 < command.length) {
      if (!double || ['$', '`', '"', '\\', '\n'].includes(command[i + 1]!)) i++;
    } else if (c === '$' && command[i + 1] === '(') return true;
    else if (!double && (c === '<' || c === '>') && command[i + 1] === '(') return true;
    else if (c === '`') return true;
  }
  return false;
}

/** The line, single-quoted for bash: every `'` becomes `'\''`. */
export const singleQuoted = (line: string): string => `'${line.replaceAll("'", "'\\''")}'`;

/** A rewritten command as Gemini will run it, or why it cannot be delivered. */
export function deliverable(rewritten: string, original: unknown): { command: string } | { refusal: string } {
  if (!hasCommandSubstitution(rewritten)) return { command: rewritten };
  if (typeof original === 'string' && hasCommandSubstitution(original))
    return {
      refusal:
        'Gemini CLI refuses command substitution ($(), backticks, <() or >()) in a shell command, and hookwise keeps that refusal: write the command without it',
    };
  return { command: `eval ${singleQuoted(rewritten)}` };
}
