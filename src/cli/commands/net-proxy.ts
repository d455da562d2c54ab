import type { Command } from 'commander';
import type { SetExit } from '../index.js';
import { UserError } from '../errors.js';

/**
 * `hookwise net-proxy --socket S -- hosts…`: the network proxy for a sandbox allowlist,
 * as hookwise starts it on its own (src/sandbox/proxy/daemon.ts). Hidden: the socket
 * and the normalized list are hookwise's to choose.
 */
export function defineNetProxy(program: Command, setExit: SetExit): void {
  program
    .command('net-proxy', { hidden: true })
    .description("Serve the OS sandbox's network proxy for an allowlist (started by hookwise; docs/security.md#the-os-sandbox).")
    .requiredOption('--socket <path>', 'the Unix socket to listen on')
    .argument('<hosts...>', 'the allowlist, normalized')
    .action(async (hosts: string[], flags: { socket: string }) => {
      const { allowEntryProblem, normalizeEntry } = await import('../../sandbox/proxy/allowlist.js');
      const bad = hosts.find((h) => allowEntryProblem(h) !== undefined);
      if (bad !== undefined) throw new UserError(`net-proxy: ${JSON.stringify(bad)} ${allowEntryProblem(bad)}`);
      const { runNetProxyDaemon } = await import('../../sandbox/proxy/daemon.js');
      setExit(await runNetProxyDaemon(flags.socket, hosts.map(normalizeEntry)));
    });
}
