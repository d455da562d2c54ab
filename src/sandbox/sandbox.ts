/** One policy's sandbox: finds the program, lays out what a command sees, and wraps the command. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { PathPolicy } from '../path-policy/judge.js';
import { createScanner } from '../secrets/scan.js';
import { bwrapArgs } from './bwrap.js';
import { RUNTIME_CWD, shq, wrapCommand } from './command.js';
import { detectSandbox, type Availability } from './detect.js';
import { layoutFor, type Layout } from './layout.js';
import { bridgeFor, prepareBridge } from './proxy/bridge.js';
import { seatbeltProfile } from './seatbelt.js';
import type { ResolvedSandbox } from './settings.js';

/** One command made ready to run sandboxed. */
export interface Wrapped {
  /** The shell line to run instead of the command. */
  line: string;
  /** What the sandbox enforced, as a short digest of its layout and settings (recorded in the audit trail). */
  digest: string;
  layout: Layout;
}

type Env = Readonly<Record<string, string | undefined>>;

let scanner: ReturnType<typeof createScanner> | undefined;

interface Prepared {
  /** The program and the layout's own arguments, quoted. */
  launcher: string;
  digest: string;
}

export class Sandbox {
  private readonly prepared = new WeakMap<Layout, Prepared>();

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
  async prepare(): Promise<string | undefined> {
    const allow = this.allowlist;
    return allow === undefined ? undefined : prepareBridge(allow, this.platform);
  }

  /** The line that runs `command` in the sandbox for this policy; throws when no sandbox is available. */
  wrap(command: string, policy: PathPolicy, env: Env): Wrapped {
    const found = this.available();
    if (!found.ok) throw new Error(found.why);
    const allow = this.allowlist;
    const bridge = allow === undefined ? undefined : bridgeFor(allow, this.platform);
    const layout = layoutFor({ policy, pathDirs: (env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)) });
    const { launcher, digest } = this.launcherFor(layout, found.program);
    // What depends on this call (the environment, the proxy), after the layout's own arguments.
    const unnamed = this.unnamedVariables(env);
    const extra =
      this.platform === 'darwin'
        ? unnamed.length > 0
          ? ['/usr/bin/env', ...unnamed.flatMap((n) => ['-u', n])]
          : []
        : [...(bridge?.bwrapArgs ?? []), ...unnamed.flatMap((n) => ['--unsetenv', n]), '--chdir', RUNTIME_CWD, '--'];
    const line = wrapCommand({
      launcher: [launcher, ...extra.map(shq)].join(' '),
      layout,
      command,
      unsetNames: this.secretValued(env),
      passEnv: this.settings.passEnv,
      // bubblewrap's --dev makes /dev a private tmpfs (bwrap.ts): a place the scrub may write that nothing else sees.
      scratch: this.platform === 'darwin' ? undefined : '/dev/shm',
      prelude: bridge?.prelude,
    });
    return { line, digest, layout };
  }

  /** The quoted program and layout arguments, and the digest: made once, as the layout is kept while the disk does not change. */
  private launcherFor(layout: Layout, program: string): Prepared {
    let ready = this.prepared.get(layout);
    if (ready === undefined) {
      const launcher =
        this.platform === 'darwin'
          ? [program, '-p', seatbeltProfile(layout, this.settings)]
          : [program, ...bwrapArgs(layout, this.settings)];
      ready = { launcher: launcher.map(shq).join(' '), digest: digestOf(layout, this.settings) };
      this.prepared.set(layout, ready);
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
