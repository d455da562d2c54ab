/**
 * Reads a model's verdict: a JSON object (`{ok, reason}` or `{decision, reason}`),
 * bare, in a ```json fence or inside prose; else a leading ALLOW/DENY word.
 */
export interface TextVerdict {
  allow: boolean;
  reason?: string;
}

const ALLOW_WORDS = new Set(['allow', 'allowed', 'approve', 'approved', 'ok', 'yes', 'accept', 'accepted']);
const DENY_WORDS = new Set(['deny', 'denied', 'block', 'blocked', 'reject', 'rejected', 'no']);
const WORD_DECISIONS = [...ALLOW_WORDS, ...DENY_WORDS].filter((w) => !['ok', 'yes', 'no', 'accept', 'accepted'].includes(w));

/** Every balanced `{...}` in the text, outermost first, skipping braces inside strings. */
function jsonObjectCandidates(text: string): string[] {
  const found: string[] = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        found.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return found;
}

function fromObject(value: Record<string, unknown>): TextVerdict | undefined {
  const reason = typeof value.reason === 'string' && value.reason.trim() !== '' ? value.reason.trim() : undefined;
  if (typeof value.ok === 'boolean') return { allow: value.ok, reason };
  if (typeof value.decision === 'string') {
    const word = value.decision.trim().toLowerCase();
    if (ALLOW_WORDS.has(word)) return { allow: true, reason };
    if (DENY_WORDS.has(word)) return { allow: false, reason };
  }
  return undefined;
}

function fromJson(text: string): TextVerdict | undefined {
  const fenced = [...text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)].map((m) => m[1]!);
  for (const candidate of [text.trim(), ...fenced, ...jsonObjectCandidates(text)]) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const verdict = fromObject(parsed as Record<string, unknown>);
      if (verdict) return verdict;
    }
  }
  return undefined;
}

/** `DENY: rm -rf is destructive` -> deny, reason "rm -rf is destructive". Decoration (`**`, quotes, `Verdict:`) is skipped. */
function fromLeadingWord(text: string): TextVerdict | undefined {
  const pattern = new RegExp(
    `^[\\s*_#>"'\`\\[(]*(?:(?:verdict|decision|answer)\\s*[:=-]\\s*[*_"'\`]*)?(${WORD_DECISIONS.join('|')})\\b`,
    'i',
  );
  const match = pattern.exec(text);
  if (!match) return undefined;
  const word = match[1]!.toLowerCase();
  const reason = text
    .slice(match[0].length)
    .replace(/^[\s*_"'`)\].:,;!-]+/, '')
    .trim();
  return { allow: ALLOW_WORDS.has(word), reason: reason || undefined };
}

export function readVerdict(text: string): TextVerdict | undefined {
  return fromJson(text) ?? fromLeadingWord(text);
}
