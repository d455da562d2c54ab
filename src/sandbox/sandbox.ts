/** One policy's sandbox: finds the program, lays out what a command sees, and wraps the command. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { createScanner } from '../secrets/scan.js';
import { bwrapArgs } from './bwrap.js';
import { RUNTIME_CWD, shq, wrapCommand } from './command.js';
import { detectSandbox, type Availability } from './detect.js';
import { layoutFor, type Layout } from './layout.js';
import { preparePrivateTemp, privateTempRoot, sandboxStateRoot, sessionFolders, type PrivateTemp } from './private-temp.js';
import { COMMAND_VARIABLE, SEALED_FOLDER, sealedLine } from './sealed-line.js';
import { bridgeFor, prepareBridge } from './proxy/bridge.js';
import { seatbeltProfile } from './seatbelt.js';
import type { ResolvedSandbox } from './settings.js';
import { SandboxUnavailableError } from './errors.js';

/** One command made ready to run sandboxed. */
export interface Wrapped {
  /** The shell line to run instead of the command. */
  line: string;
  /** What the sandbox enforced, as a short digest of its layout and settings (recorded in the audit trail). */
  digest: string;
  layout: Layout;
}

type Env = Readonly<Record<string, string | undefined>>;

export interface WrapOptions {
  /**
   * The key of the session's own /tmp and /var/tmp (private-temp.ts); without it, or when
   * they cannot be made safely, each command gets empty ones.
   */
  session?: string;
  /** Said on stderr after the command, outside: what it did only to its session's copies (the guard's reasons). */
  notes?: readonly string[];
  /**
   * The caller proved the command needs no network (guards/shell/offline.ts): it runs with
   * none, whatever the policy allows, and the allowlist's bridge is not started for it.
   */
  offline?: boolean;
}

let scanner: ReturnType<typeof createScanner> | undefined;

interface Prepared {
  /** The program and the layout's own arguments, quoted. */
  launcher: string;
  digest: string;
}

export class Sandbox {
  /** Per layout, per session's temporary folders ('' for none). */
  private readonly prepared = new WeakMap<Layout, Map<string, Prepared>>();

  constructor(
    readonly settings: ResolvedSandbox,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  available(): Availability {
    return detectSandbox(this.platform);
  }

  /** The hosts a command may reach through the network proxy, when the network is an allowlist. */
  get allowlist(): readonly string[] | undefined {
    const { network } = this.settings;
    return typeof network === 'object' ? network.allow : undefined;
  }

  /**
   * Before wrap, with an allowlist: a network proxy for it answers (started when none
   * does). The one-line reason when it cannot; undefined when ready or not needed.
   */
  async prepare(options: WrapOptions = {}): Promise<string | undefined> {
    const allow = this.needsBridge(options) ? this.allowlist : undefined;
    return allow === undefined ? undefined : prepareBridge(allow, this.platform);
  }

  /** Whether a command wrapped with these options reaches the allowlist's proxy (an offline one runs with no network at all). */
  needsBridge(options: WrapOptions): boolean {
    return this.allowlist !== undefined && options.offline !== true;
  }

  /** The real folders a session's /tmp and /var/tmp are (made on its first command); undefined where there are none (macOS). */
  sessionTemp(policy: PathPolicy, session: string): Readonly<Record<string, string>> | undefined {
    return this.platform === 'darwin' ? undefined : sessionFolders(privateTempRoot(policy.home), session);
  }

  /** The line that runs `command` in the sandbox for this policy; throws when no sandbox is available. */
  wrap(command: string, policy: PathPolicy, env: Env, options: WrapOptions = {}): Wrapped {
    const { session, notes } = options;
    const found = this.available();
    if (!found.ok) throw new SandboxUnavailableError(found.why);
    const allow = this.needsBridge(options) ? this.allowlist : undefined;
    const bridge = allow === undefined ? undefined : bridgeFor(allow, this.platform);
    const layout = this.layoutOf(policy, env);
    const temp =
      session === undefined || this.platform === 'darwin'
        ? undefined
        : preparePrivateTemp(
            privateTempRoot(policy.home),
            session,
            [...layout.readable, ...layout.writable],
            layout.workspace,
            policy.home,
          );
    const { launcher, digest } = this.launcherFor(layout, found.program, temp);
    const sealedIn = this.platform === 'darwin' ? undefined : path.join(sandboxStateRoot(policy.home), SEALED_FOLDER);
    return { line: this.lineFor(launcher, layout, command, env, bridge, notes, sealedIn), digest, layout };
  }

  /** What the sandbox shows a command of this policy now (kept between calls while the disk does not change). */
  layoutOf(policy: PathPolicy, env: Env): Layout {
    return layoutFor({ policy, pathDirs: (env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)) });
  }

  private lineFor(
    launcher: string,
    layout: Layout,
    command: string,
    env: Env,
    bridge: ReturnType<typeof bridgeFor> | undefined,
    notes: readonly string[] | undefined,
    sealedIn: string | undefined,
  ): string {
    // What depends on this call (the environment, the proxy), after the layout's own arguments.
    const unnamed = this.unnamedVariables(env);
    const extra =
      this.platform === 'darwin'
        ? unnamed.length > 0
          ? ['/usr/bin/env', ...unnamed.flatMap((n) => ['-u', n])]
          : []
        : [...(bridge?.bwrapArgs ?? []), ...unnamed.flatMap((n) => ['--unsetenv', n]), '--chdir', RUNTIME_CWD, '--'];
    const inputs = {
      launcher: [launcher, ...extra.map(shq)].join(' '),
      layout,
      command,
      unsetNames: this.secretValued(env),
      passEnv: this.settings.passEnv,
      // bubblewrap's --dev makes /dev a private tmpfs (bwrap.ts): a place the scrub may write that nothing else sees.
      scratch: this.platform === 'darwin' ? undefined : '/dev/shm',
      prelude: bridge?.prelude,
      noRoute: this.platform === 'darwin' ? undefined : this.noRouteNote(),
      notes,
    };
    // The short line that names the rest, sealed by its digest (sealed-line.ts); the long one where it cannot be sealed.
    if (sealedIn !== undefined) {
      const short = sealedLine(wrapCommand({ ...inputs, commandWord: `"$${COMMAND_VARIABLE}"` }), command, sealedIn);
      if (short !== undefined) return short;
    }
    return wrapCommand(inputs);
  }

  /** What a command that found no route to a host is told: why, and the setting that would let it through. */
  private noRouteNote(): string | undefined {
    const { network } = this.settings;
    if (network === 'on') return undefined;
    if (network === 'off') {
      return (
        "hookwise sandbox: this command tried to reach the network, and the policy gives it none (the shell guard's sandbox.network is 'off'); " +
        "a person can allow package registries and git remotes with shellGuard({ sandbox: { network: 'registries' } }), or hosts with { network: { allow: ['host'] } }"
      );
    }
    return (
      'hookwise sandbox: this command tried to reach a host directly; only the hosts on sandbox.network are reachable, ' +
      'through the proxy in HTTPS_PROXY (programs that ignore the proxy variables reach nothing)'
    );
  }

  /** The quoted program and layout arguments, and the digest: made once, as the layout is kept while the disk does not change. */
  private launcherFor(layout: Layout, program: string, temp: PrivateTemp | undefined): Prepared {
    let forLayout = this.prepared.get(layout);
    // One entry per session while the layout lasts; a resident serving many sessions keeps only the recent ones.
    if (forLayout === undefined || forLayout.size >= 64) this.prepared.set(layout, (forLayout = new Map()));
    // macOS has no private folders yet (seatbelt.ts): its profile is the same for every session.
    const own = this.platform === 'darwin' ? undefined : temp;
    const key = own === undefined ? '' : JSON.stringify(own);
    let ready = forLayout.get(key);
    if (ready === undefined) {
      const launcher =
        this.platform === 'darwin'
          ? [program, '-p', seatbeltProfile(layout, this.settings)]
          : [program, ...bwrapArgs(layout, this.settings, own)];
      // The digest names the sandbox's rules, which are the same for every session's folders.
      ready = { launcher: launcher.map(shq).join(' '), digest: digestOf(layout, this.settings) };
      forLayout.set(key, ready);
    }
    return ready;
  }

  /**
   * Variables whose names are not shell names (`npm_config_//registry.npmjs.org/:_authToken`,
   * how npm takes a registry token from the environment): bash can neither judge nor unset
   * them, yet passes them on to every program, so the sandbox starts without them.
   * Exported bash functions (`BASH_FUNC_module%%`, as Lmod's `module`) are code, and stay.
   */
  private unnamedVariables(env: Env): string[] {
    return Object.keys(env)
      .filter(
        (name) =>
          env[name] !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$|^BASH_FUNC_.+%%$/.test(name) && !this.settings.passEnv.includes(name),
      )
      .sort();
  }

  /** Variables whose value looks like a credential, whatever their name. */
  private secretValued(env: Env): string[] {
    scanner ??= createScanner();
    return Object.entries(env)
      .filter(
        ([name, value]) => typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !this.settings.passEnv.includes(name),
      )
      .filter(([, value]) => scanner!.find(value!).length > 0)
      .map(([name]) => name)
      .sort();
  }
}

function digestOf(layout: Layout, settings: ResolvedSandbox): string {
  return createHash('sha256').update(JSON.stringify({ layout, settings })).digest('hex').slice(0, 16);
}
