/**
 * Characters that make a string mean something other than what a person
 * reading it sees: control characters and invisible or look-alike spaces.
 */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists invisible and combining code points on purpose, one by one
  /[\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

function hex(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why the text cannot be trusted as shown, or undefined. Tabs and newlines are fine. */
export function textHazard(text: string): string | undefined {
  if (text.includes('\r')) return 'contains a carriage return, which can hide text from a person reading it';
  const control = CONTROL.exec(text);
  if (control) return `contains the control character ${hex(control[0])}`;
  const invisible = INVISIBLE.exec(text);
  if (invisible) return `contains the invisible character ${hex(invisible[0])}`;
  return undefined;
}
