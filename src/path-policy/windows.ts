/**
 * Path spellings Windows reads differently from what they look like: device
 * names, UNC and device namespaces, alternate data streams, 8.3 short names,
 * trailing dots and spaces. A guard cannot prove where they lead, so it refuses
 * them on every platform (a config shared with a Windows machine stays safe).
 */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;
const SHORT_NAME = /^[^~.]{1,6}~[0-9]+(\.[^.]{0,3})?$/;

/**
 * What every form below needs somewhere: two leading separators, a backslash, colon or
 * tilde, a component ending in a dot or space, or one starting like a device name. Most
 * paths have none, and one test saves splitting them and testing each component.
 */
const MAYBE_WINDOWS = /^[\\/]{2}|[\\:~]|[. ](?:\/|$)|(?:^|\/)(?:con|prn|aux|nul|com|lpt|clock)/i;

/** Why the path is a Windows special form, or undefined. */
export function windowsProblem(raw: string): string | undefined {
  if (!MAYBE_WINDOWS.test(raw)) return undefined;
  if (/^[\\/]{2}[?.][\\/]/.test(raw)) return 'uses the Windows device namespace (\\\\?\\ or \\\\.\\)';
  if (/^\\\\/.test(raw)) return 'is a Windows UNC network path';
  if (/^[A-Za-z]:/.test(raw)) return 'is a Windows drive path';
  if (raw.includes('\\')) return 'contains a backslash, which Windows reads as a folder separator';
  for (const component of raw.split('/')) {
    if (component === '' || component === '.' || component === '..') continue;
    if (component.includes(':')) return `has "${component}", a Windows alternate data stream form`;
    const base = component.replace(/[. ]+$/, '').split('.')[0] ?? '';
    if (DEVICE.test(base)) return `names the Windows device ${base.toUpperCase()}`;
    if (SHORT_NAME.test(component)) return `has "${component}", a Windows 8.3 short name that can alias another file`;
    if (/[. ]$/.test(component)) return `has "${component}" ending in a dot or space, which Windows strips`;
  }
  return undefined;
}
