import { describe, expect, it } from 'vitest';
import { PatchError, parseApplyPatch } from '../../src/hosts/apply-patch.js';

/** Codex's patch text read for the files it touches (src/hosts/apply-patch.ts). */
const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch\n`;

describe('parseApplyPatch', () => {
  it('reads added, updated, moved and deleted files in order', () => {
    const text = patch(
      [
        '*** Add File: src/new.ts',
        '+export const a = 1;',
        '+',
        '*** Update File: src/old.ts',
        '*** Move to: src/renamed.ts',
        '@@ function f',
        ' keep',
        '-gone',
        '+added',
        '*** Delete File: .env.local',
      ].join('\n'),
    );
    expect(parseApplyPatch(text)).toEqual([
      { kind: 'add', path: 'src/new.ts', content: 'export const a = 1;\n' },
      { kind: 'update', path: 'src/old.ts', moveTo: 'src/renamed.ts', removed: 'gone', added: 'added' },
      { kind: 'delete', path: '.env.local' },
    ]);
  });

  it("peels the here-document Codex's shell tool carries (`apply_patch <<'EOF'`)", () => {
    const text = `apply_patch <<'EOF'\n${patch('*** Add File: .env.local\n+TOKEN=1')}EOF\n`;
    expect(parseApplyPatch(text)).toEqual([{ kind: 'add', path: '.env.local', content: 'TOKEN=1' }]);
  });

  it.each([
    ['no Begin line', '*** Add File: a\n+x\n*** End Patch', /no "\*\*\* Begin Patch"/],
    ['no End line', '*** Begin Patch\n*** Add File: a\n+x', /no "\*\*\* End Patch"/],
    ['a command before the patch', `rm -rf / ; apply_patch <<EOF\n${patch('*** Add File: a\n+x')}EOF`, /before/],
    ['a command after the patch', `apply_patch <<EOF\n${patch('*** Add File: a\n+x')}EOF\nrm -rf /`, /after/],
    ['a line that is no header', patch('hello\n*** Add File: a\n+x'), /not a file header/],
    ['an added line without +', patch('*** Add File: a\nx'), /does not start with \+/],
    ['a header without a file', patch('*** Add File: '), /names no file/],
    ['no file at all', patch(''), /touches no file/],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseApplyPatch(text)).toThrow(PatchError);
    expect(() => parseApplyPatch(text)).toThrow(message);
  });
});
