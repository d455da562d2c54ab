import { createHash } from 'node:crypto';
import type { HookSpec } from '../../core/spec.js';

/**
 * What makes two handlers from Claude Code settings "identical" (docs/claude-code.md, "Parity"):
 * same event, type, command/args/url/prompt, matcher and `if`. Identical handlers
 * from several settings files run once.
 */
const identities = new WeakMap<HookSpec, string>();

export function identityKey(parts: {
  event: string;
  type: string;
  command?: string;
  args?: string[];
  url?: string;
  prompt?: string;
  matcher?: string;
  if?: string;
}): string {
  return JSON.stringify([
    parts.event,
    parts.type,
    parts.command ?? null,
    parts.args ?? null,
    parts.url ?? null,
    parts.prompt ?? null,
    parts.matcher?.trim() || null,
    parts.if ?? null,
  ]);
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

export function setIdentity(spec: HookSpec, key: string): void {
  identities.set(spec, key);
}

export function identityOf(spec: HookSpec): string | undefined {
  return identities.get(spec);
}
