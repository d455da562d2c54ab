import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashToken, type Tenant } from '../../src/serve/index.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const TOKEN = 'test-token-0123456789abcdef';

/** The three built-in guards, as a user writes them (`import ... from 'hookwise'` resolves to dist/). */
export const GUARDS_CONFIG = `import { defineConfig } from 'hookwise';
import { shellGuard, pathGuard, secretGuard } from 'hookwise/guards';
export default defineConfig({ hooks: [shellGuard(), pathGuard(), secretGuard()] });
`;

/**
 * A folder for configs inside the repo (so `import 'hookwise'` resolves to this
 * package) and a project folder outside it for the requests' cwd.
 */
export function workspace(label: string): { configDir: string; project: string; cleanup: () => void } {
  const base = path.join(repoRoot, '.tmp', 'serve-tests');
  mkdirSync(base, { recursive: true });
  const configDir = mkdtempSync(path.join(base, `${label}-`));
  const project = mkdtempSync(path.join(tmpdir(), `hookwise-serve-${label}-`));
  return {
    configDir,
    project,
    cleanup: () => {
      rmSync(configDir, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    },
  };
}

export function writeConfig(dir: string, source: string, name = 'hookwise.config.mjs'): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

export function tenant(name: string, config: string | string[], token = TOKEN, extra: Partial<Tenant> = {}): Tenant {
  return { name, tokenSha256: hashToken(token), config: Array.isArray(config) ? config : [config], ...extra };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  token: string | null = TOKEN,
): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null && { authorization: `Bearer ${token}` }), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

export const preToolUse = (project: string, tool: string, toolInput: Record<string, unknown>, session = 's1') => ({
  session_id: session,
  transcript_path: path.join(project, 'transcript.jsonl'),
  cwd: project,
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: tool,
  tool_input: toolInput,
  tool_use_id: 'toolu_1',
});
