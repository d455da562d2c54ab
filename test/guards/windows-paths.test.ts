import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowsProblem } from '../../src/path-policy/windows.js';

/** The rules as first written, component by component, with no shortcut: the oracle. */
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;
const SHORT_NAME = /^[^~.]{1,6}~[0-9]+(\.[^.]{0,3})?$/;
function reference(raw: string): string | undefined {
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

describe('windowsProblem', () => {
  it.each([
    '/work/project/src/a.ts',
    'src/CON',
    'src/nul.txt',
    'a/Com1.log',
    'LPT¹',
    'conin$',
    'clock$.x',
    'PROGRA~1/x',
    'file.txt.',
    'dir /x',
    'a:b',
    'C:/x',
    '\\\\server\\share',
    '//?/c:/x',
    '//./pipe/x',
    './a/../b',
    '~/notes',
    'console/log.txt',
    'auxiliary.md',
  ])('answers %j as the component-by-component rules do', (raw) => {
    expect(windowsProblem(raw)).toBe(reference(raw));
  });

  it('answers random paths as the component-by-component rules do', () => {
    const part = fc.constantFrom(
      'a',
      'src',
      'con',
      'NUL',
      'com',
      'Com9',
      'lpt',
      'LPT3',
      'clock$',
      'aux',
      'prn',
      'conout$',
      '.',
      '..',
      ' ',
      '~',
      '~1',
      'ABCDEF',
      ':',
      '\\',
      '?',
      '/',
      '//',
      '.txt',
      'é',
      '¹',
      '$',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 10 }), (parts) => {
        const raw = parts.join('');
        expect(windowsProblem(raw)).toBe(reference(raw));
      }),
      { numRuns: 5000 },
    );
  });
});
