import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  SetLevelRequestSchema,
  EmptyResultSchema,
  SubscribeRequestSchema,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { HookEngine } from '../core/engine.js';
import { ToolGate, type AdapterOptions } from '../gate/index.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './capped-stdio.js';
import { ToolCatalog } from './tool-catalog.js';
import { GovernedToolCall } from './tool-call.js';

export interface McpProxyOptions extends AdapterOptions {
  /** The `<server>` in `mcp__<server>__<tool>`. */
  serverName: string;
  /** The largest tools/call result passed on (default 16 MiB); a larger one is refused with an error. */
  maxMessageBytes?: number;
}

/**
 * An MCP server that presents the upstream's tools, resources and prompts
 * unchanged (its own answers, passed through) and sends every tools/call through
 * the policy: by a name the upstream lists, exactly, with every part of its result
 * judged. Only the capabilities the upstream has are offered.
 */
export class McpProxy {
  readonly server: Server;
  private readonly gate: ToolGate;
  /** The upstream's own tool names: the only ones a call may use. */
  private readonly catalog: ToolCatalog;

  constructor(
    engine: HookEngine,
    private readonly upstream: Client,
    readonly options: McpProxyOptions,
  ) {
    this.gate = new ToolGate(engine, 'mcp-proxy', options);
    this.catalog = new ToolCatalog(upstream, options.serverName);
    const capabilities = upstream.getServerCapabilities() ?? {};
    const info = upstream.getServerVersion() ?? { name: options.serverName, version: '0' };
    this.server = new Server({ ...info }, { capabilities, instructions: upstream.getInstructions() });
    this.forwardRequests(capabilities);
    this.forwardNotifications();
  }

  private forwardRequests(capabilities: NonNullable<ReturnType<Client['getServerCapabilities']>>): void {
    const s = this.server;
    const up = this.upstream;
    if (capabilities.tools) {
      const calls = new GovernedToolCall(
        this.gate,
        up,
        this.catalog,
        this.options.serverName,
        { canAsk: () => this.server.getClientCapabilities()?.elicitation !== undefined, ask: (message) => this.askHuman(message) },
        this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      );
      s.setRequestHandler(ListToolsRequestSchema, (r, extra) => up.request(r, ListToolsResultSchema, { signal: extra.signal }));
      s.setRequestHandler(CallToolRequestSchema, (r, extra) => calls.call(r, extra.signal));
    }
    if (capabilities.resources) {
      s.setRequestHandler(ListResourcesRequestSchema, (r, extra) => up.request(r, ListResourcesResultSchema, { signal: extra.signal }));
      s.setRequestHandler(ListResourceTemplatesRequestSchema, (r, extra) =>
        up.request(r, ListResourceTemplatesResultSchema, { signal: extra.signal }),
      );
      s.setRequestHandler(ReadResourceRequestSchema, (r, extra) => up.request(r, ReadResourceResultSchema, { signal: extra.signal }));
      if (capabilities.resources.subscribe) {
        s.setRequestHandler(SubscribeRequestSchema, (r, extra) => up.request(r, EmptyResultSchema, { signal: extra.signal }));
        s.setRequestHandler(UnsubscribeRequestSchema, (r, extra) => up.request(r, EmptyResultSchema, { signal: extra.signal }));
      }
    }
    if (capabilities.prompts) {
      s.setRequestHandler(ListPromptsRequestSchema, (r, extra) => up.request(r, ListPromptsResultSchema, { signal: extra.signal }));
      s.setRequestHandler(GetPromptRequestSchema, (r, extra) => up.request(r, GetPromptResultSchema, { signal: extra.signal }));
    }
    if (capabilities.completions)
      s.setRequestHandler(CompleteRequestSchema, (r, extra) => up.request(r, CompleteResultSchema, { signal: extra.signal }));
    if (capabilities.logging)
      s.setRequestHandler(SetLevelRequestSchema, (r, extra) => up.request(r, EmptyResultSchema, { signal: extra.signal }));
  }

  private forwardNotifications(): void {
    const forward = (n: { method: string; params?: Record<string, unknown> }) => {
      if (n.method === 'notifications/tools/list_changed') this.catalog.invalidate();
      this.server.notification(n as never).catch(() => {});
    };
    for (const schema of [
      ToolListChangedNotificationSchema,
      ResourceListChangedNotificationSchema,
      ResourceUpdatedNotificationSchema,
      PromptListChangedNotificationSchema,
      LoggingMessageNotificationSchema,
    ]) {
      this.upstream.setNotificationHandler(schema, forward as never);
    }
  }

  /** Ask the human through the client's elicitation; a failed elicitation is a no, never a yes. */
  private async askHuman(message: string): Promise<boolean> {
    try {
      const answer = await this.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} } });
      return answer.action === 'accept';
    } catch {
      return false;
    }
  }

  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
  }

  async close(): Promise<void> {
    await this.server.close();
    await this.upstream.close();
  }
}
