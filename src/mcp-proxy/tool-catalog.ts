import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { looseName, shown, unreadableName } from './tool-names.js';
import { McpUpstreamError } from './errors.js';

export type Resolved = { ok: true; name: string } | { ok: false; message: string };

/** More pages than any real server has: a cursor that never ends is refused, not followed forever. */
const MAX_PAGES = 1000;

/**
 * The upstream's own tools/list, the only names the proxy forwards. A call must
 * name a listed tool exactly; the list is read again when the upstream says it
 * changed, and once more before a name it lacks is refused (a server may add tools
 * without saying so).
 */
export class ToolCatalog {
  private names: Promise<string[]> | null = null;

  constructor(
    private readonly upstream: Client,
    private readonly serverName: string,
  ) {}

  /** The upstream said its tools changed (notifications/tools/list_changed). */
  invalidate(): void {
    this.names = null;
  }

  async resolve(asked: unknown): Promise<Resolved> {
    if (typeof asked !== 'string') return { ok: false, message: `mcp-proxy: a tool name must be a string, got ${typeof asked}` };
    let names: string[];
    try {
      names = await this.list();
      if (!names.includes(asked)) {
        this.invalidate();
        names = await this.list();
      }
    } catch (error) {
      return {
        ok: false,
        message: `mcp-proxy: cannot read the upstream's tools/list to check the name ${shown(asked)} (${(error as Error).message}); the call is refused`,
      };
    }
    if (!names.includes(asked)) return { ok: false, message: this.unlisted(asked, names) };
    const unreadable = unreadableName(asked);
    if (unreadable)
      return {
        ok: false,
        message: `mcp-proxy: the upstream server "${this.serverName}" lists a tool named ${shown(asked)}, but ${unreadable}, so no policy can name it reliably; hookwise does not call it`,
      };
    const twins = names.filter((n) => n !== asked && looseName(n) === looseName(asked));
    if (twins.length > 0)
      return {
        ok: false,
        message: `mcp-proxy: the upstream server "${this.serverName}" lists ${[asked, ...twins].map(shown).join(' and ')}, names that differ only by case, width, accents or invisible characters; hookwise cannot know which one a lenient server runs, so it calls none of them`,
      };
    return { ok: true, name: asked };
  }

  private unlisted(asked: string, names: string[]): string {
    const meant = names.find((n) => looseName(n) === looseName(asked));
    const base = `mcp-proxy: the upstream server "${this.serverName}" lists no tool named ${shown(asked)}`;
    if (meant !== undefined) return `${base}; did you mean ${shown(meant)}? Call a tool by its exact listed name.`;
    return `${base}. Call one of the tools its tools/list returns, by its exact name.`;
  }

  /** One read shared by the calls that wait for it; no caller's abort ends it for the others. */
  private list(): Promise<string[]> {
    if (this.names === null) {
      const loading = this.load();
      this.names = loading;
      // A failed read is not remembered: the next call tries again.
      loading.catch(() => {
        if (this.names === loading) this.names = null;
      });
    }
    return this.names;
  }

  private async load(): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.upstream.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsResultSchema,
      );
      for (const tool of result.tools) names.push(tool.name);
      cursor = result.nextCursor;
      if (cursor === undefined) return names;
    }
    throw new McpUpstreamError(`the tools/list has more than ${MAX_PAGES} pages`);
  }
}
