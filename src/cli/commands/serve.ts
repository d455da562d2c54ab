import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { collect } from '../load-engine.js';

interface ServeFlags {
  host: string;
  port: string;
  config?: string[];
  tokenFile?: string;
  tenants?: string;
  counters?: string;
  countersPrefix: string;
  audit?: string;
  otlp?: string;
  maxBody: string;
  rateLimit?: string;
  watch: boolean;
  drainTimeout: string;
  workers?: string;
}

export function defineServe(program: Command, setExit: SetExit): void {
  program
    .command('serve')
    .description(
      "Serve hook decisions over HTTP: Claude Code's http hooks (POST /v1/claude-code) and hookwise's JSON API (POST /v1/fire/<event>). See docs/serve.md.",
    )
    .option('--host <host>', 'address to listen on (anything but loopback exposes the server: put TLS in front)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option(
      '-c, --config <file>',
      'the policy, one tenant: a configuration source; repeat to merge several (default: hookwise.config.* in the current folder)',
      collect,
    )
    .option('--token-file <file>', 'one tenant: the file holding its bearer token (default: $HOOKWISE_TOKEN)')
    .option('--tenants <file>', 'many tenants: a JSON or YAML file mapping sha256(token) to a tenant and its config (docs/fleet.md)')
    .option('--counters <url>', 'where budgets and rate limits count: redis://host:port[/db] shared by replicas, or memory: (default)')
    .option('--counters-prefix <prefix>', 'prefix of every Redis key', 'hookwise:')
    .option(
      '--audit <file|url>',
      'append every outcome to this audit store (an SQLite file or a postgres:// URL); it also holds the durable approvals the /approvals page and API answer',
    )
    .option('--otlp <url>', 'export spans and metrics over OTLP/HTTP to this collector, e.g. http://127.0.0.1:4318')
    .option('--max-body <bytes>', 'largest request body accepted', String(4 * 1024 * 1024))
    .option('--rate-limit <n>', 'one tenant: requests per minute at most, across replicas sharing --counters')
    .option('--no-watch', 'do not reload the config when its files change')
    .option(
      '--workers <n>',
      'server processes sharing the port, or auto (one per core); they share in-memory counters through the first process (default 1)',
    )
    .option('--drain-timeout <ms>', 'on SIGTERM, how long in-flight requests may take before the server stops anyway', '10000')
    .action(async (flags: ServeFlags) => {
      const { runServe } = await import('../serve/run.js');
      setExit(await runServe(flags));
    });
}

export type { ServeFlags };
