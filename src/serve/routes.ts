import { Refusal } from './refusal.js';

/** A hook request: Claude Code's route, or hookwise's own fire API with its event. */
export type HookRoute = { kind: 'claude-code'; pathEvent?: string } | { kind: 'fire'; event: string };

/**
 * The hook route a request path is on, whatever else it carries: a query string,
 * trailing or doubled slashes, more segments (`/v1/claude-code/PreToolUse`),
 * percent-encoding, another case. A hook request must always get a decision, and
 * Claude Code runs the tool on a 404, so nothing under a hook route may fall through to
 * "no route". Undefined for every other path.
 */
export function hookRoute(url: string): HookRoute | undefined {
  const q = url.indexOf('?');
  const raw = (q < 0 ? url : url.slice(0, q)).split('/').filter((s) => s !== '');
  const segments = raw.map(decoded);
  if (segments[0]?.toLowerCase() !== 'v1') return undefined;
  const route = segments[1]?.toLowerCase();
  if (route === 'claude-code') {
    // Claude Code names the event in the body; a name in the path only says what a body that cannot be read was.
    return segments.length === 3 ? { kind: 'claude-code', pathEvent: segments[2]! } : { kind: 'claude-code' };
  }
  if (route !== 'fire') return undefined;
  if (segments.length !== 3) {
    throw new Refusal(
      400,
      `hookwise serve: ${segments.length < 3 ? 'name the event in the path' : `${JSON.stringify(raw.slice(2).join('/'))} is not an event name`}: POST /v1/fire/<event>, e.g. /v1/fire/PreToolUse`,
    );
  }
  return { kind: 'fire', event: segments[2]! };
}

/** A path segment as it was meant; one that is not valid percent-encoding is taken as written. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
