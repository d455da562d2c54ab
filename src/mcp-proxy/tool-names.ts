/**
 * How tool names are compared. The upstream server decides which tool a name
 * runs, and some servers are lenient (`DANGER`, `danger\u200b`, ` danger` or a
 * full-width `ｄａｎｇｅｒ` run `danger`), so the proxy never lets a policy judge
 * one name while the server runs another: a call must name a listed tool exactly.
 * The loose form below only finds what the caller probably meant (for the error)
 * and which listed names a lenient server could confuse with each other.
 */

/** Characters nobody sees or that are not part of a name: format (zero-width, bidi, soft hyphen), control, separators, spaces. */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Z}\s]/gu;
/** Combining marks, removed after decomposition so `dánger` and `danger` meet. */
const MARKS = /\p{M}/gu;

/**
 * A name as a lenient server might see it: compatibility-decomposed (NFKD: width,
 * ligatures, circled letters), marks and invisible characters removed, lower-cased,
 * composed again.
 */
export function looseName(name: string): string {
  return name.normalize('NFKD').replace(MARKS, '').replace(INVISIBLE, '').toLowerCase().normalize('NFKC');
}

/**
 * Why a listed name cannot be named reliably by a policy, or null when it can:
 * invisible characters, or characters NFKC would change (a rule written with the
 * plain letters would not match it).
 */
export function unreadableName(name: string): string | null {
  if (name.length === 0) return 'it is empty';
  INVISIBLE.lastIndex = 0;
  if (INVISIBLE.test(name)) return 'it contains invisible characters (spaces, zero-width, bidi or control characters)';
  if (name.normalize('NFKC') !== name)
    return 'it contains compatibility characters that Unicode NFKC normalisation changes (full-width letters, ligatures)';
  return null;
}

/** A name as JSON, so invisible characters show (`"danger\u200b"`). */
export function shown(name: string): string {
  return JSON.stringify(name).replace(/[\p{Cf}\p{Z}]/gu, (c) => (c === ' ' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
