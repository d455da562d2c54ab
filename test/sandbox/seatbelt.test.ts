import { describe, expect, it } from 'vitest';
import { bwrapArgs, seatbeltProfile, type Layout } from '../../src/sandbox/index.js';

/** macOS cannot run here: the profile is checked as text, rule by rule, against the layout bubblewrap gets. */
const layout: Layout = {
  workspace: '/Users/me/proj',
  writable: ['/Users/me/proj'],
  readable: ['/Users/me'],
  hidden: ['/tmp', '/Users'],
  readOnly: ['/Users/me/proj/.git/hooks'],
  pinned: ['/Users/me/proj/.git'],
  maskedFiles: ['/Users/me/proj/.env'],
  maskedDirs: ['/Users/me/.ssh'],
  unmasked: [],
  sweep: ['.mcp.json'],
  links: [],
};

describe('the Seatbelt profile (macOS)', () => {
  const profile = seatbeltProfile(layout, { network: 'off', passEnv: [] });
  const lines = profile.split('\n');
  const at = (text: string) => lines.findIndex((l) => l.includes(text));

  it('denies by default and lets everything be read before narrowing it', () => {
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(at('(allow file-read*)')).toBeGreaterThan(0);
  });

  it('hides the hidden folders (/tmp as /private/tmp), then shows the roots again, later rules winning', () => {
    expect(at('(deny file-read* (subpath "/private/tmp") (subpath "/Users"))')).toBeGreaterThan(at('(allow file-read*)'));
    expect(at('(allow file-read* (subpath "/Users/me") (subpath "/Users/me/proj"))')).toBeGreaterThan(
      at('(deny file-read* (subpath "/private/tmp")'),
    );
  });

  it('writes only to the workspace, never to read-only, swept or masked paths', () => {
    const write = at('(allow file-write* (subpath "/Users/me/proj"))');
    expect(write).toBeGreaterThan(0);
    expect(at('(deny file-write* (subpath "/Users/me/proj/.git/hooks"))')).toBeGreaterThan(write);
    expect(at('(deny file-write* (subpath "/Users/me/proj/.mcp.json"))')).toBeGreaterThan(write);
    expect(at('(deny file-read* file-write* (literal "/Users/me/proj/.env") (subpath "/Users/me/.ssh"))')).toBeGreaterThan(write);
  });

  it('has no network unless the policy turns it on', () => {
    expect(profile).not.toContain('(allow network*)');
    expect(seatbeltProfile(layout, { network: 'on', passEnv: [] })).toContain('(allow network*)');
  });

  it('matches what bubblewrap gets from the same layout', () => {
    const args = bwrapArgs(layout, { network: 'off', passEnv: [] });
    expect(args).toContain('--unshare-all');
    expect(args).not.toContain('--share-net');
    expect(args.join(' ')).toContain('--ro-bind /Users/me/proj/.git/hooks /Users/me/proj/.git/hooks');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /Users/me/proj/.env');
    expect(args.join(' ')).toContain('--tmpfs /Users/me/.ssh --remount-ro /Users/me/.ssh');
  });
});
