import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect, loadEngine } from '../load-engine.js';
import { UserError } from '../errors.js';
import { missingPackage } from '../../core/missing-package.js';

interface McpProxyFlags {
  config?: string[];
  name?: string;
  url?: string;
  db?: string;
  maxMessageBytes?: string;
}

export function defineMcpProxy(program: Command, setExit: SetExit): void {
  program
    .command('mcp-proxy')
    .description(
      'Serve an MCP server over stdio with the hook policy on every tools/call (named mcp__<server>__<tool>); tools, resources and prompts pass through unchanged.',
    )
    .usage('[options] -- <server command...>  |  --url <url>')
    .argument('[command...]', "the upstream stdio server, after `--` (started with this process's environment)")
    .option('-c, --config <file>', 'a configuration source; repeat to merge several (default: what is found in the cwd)', collect)
    .option('--name <server>', 'the <server> in mcp__<server>__<tool> (default: derived from the command or URL)')
    .option('--url <url>', 'a Streamable HTTP upstream instead of a command')
    .option('--db <path>', 'record every tool execution and the PreToolUse outcome that allowed it in this audit database')
    .option(
      '--max-message-bytes <n>',
      'the largest message or tools/call result taken from the upstream (default 16777216, 16 MiB); a larger one is refused with an error',
    )
    .action(async (command: string[], flags: McpProxyFlags) => {
      const maxMessageBytes = byteLimit(flags.maxMessageBytes);
      const spec = { ...upstreamSpec(command, flags), ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) };
      const [{ McpProxy, connectUpstream, serverNameFor, serverNameForUrl }, { StdioServerTransport }] = await Promise.all([
        import('../../mcp-proxy/index.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]).catch((error: unknown) => {
        throw missingPackage(error, '@modelcontextprotocol/sdk', 'hookwise mcp-proxy');
      });
      const { engine } = await loadEngine({ config: flags.config, cwd: process.cwd() });
      const audit = flags.db ? (await import('../../audit/index.js')).openAuditStore({ path: flags.db }) : undefined;
      const serverName = flags.name ?? ('url' in spec ? serverNameForUrl(spec.url) : serverNameFor(spec.command));
      let upstream: Awaited<ReturnType<typeof connectUpstream>>;
      try {
        upstream = await connectUpstream(spec);
      } catch (error) {
        await audit?.close();
        throw new UserError(`mcp-proxy: cannot reach the upstream server (${(error as Error).message})`);
      }
      const proxy = new McpProxy(engine, upstream, { serverName, audit, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) });
      const closed = new Promise<void>((resolve) => {
        proxy.server.onclose = () => resolve();
        upstream.onclose = () => resolve();
        // The client closing our stdin is the end of the session (the SDK's stdio server does not watch for it).
        process.stdin.once('end', () => resolve());
        process.once('SIGTERM', () => resolve());
        process.once('SIGINT', () => resolve());
      });
      await proxy.connect(new StdioServerTransport());
      await closed;
      await proxy.close().catch(() => {});
      await engine.drain();
      await audit?.close();
      setExit(0);
    });
}

function upstreamSpec(command: string[], flags: McpProxyFlags): { command: string[] } | { url: URL } {
  if (flags.url && command.length > 0) throw new UserError('mcp-proxy: give either --url or a server command after `--`, not both');
  if (flags.url) {
    try {
      return { url: new URL(flags.url) };
    } catch {
      throw new UserError(`mcp-proxy: --url ${JSON.stringify(flags.url)} is not a URL`);
    }
  }
  if (command.length === 0)
    throw new UserError('mcp-proxy: missing the upstream server: `hookwise mcp-proxy -- <command...>` or `--url <url>`');
  return { command };
}

function byteLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1024)
    throw new UserError(`mcp-proxy: --max-message-bytes must be a whole number of bytes, at least 1024; got ${JSON.stringify(value)}`);
  return n;
}
