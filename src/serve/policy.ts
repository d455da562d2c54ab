import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { HookEngine } from '../core/engine.js';
import type { Tenant } from './tenants.js';

/** Called for every engine a policy builds (audit, telemetry); returns what detaches it. */
export type EngineAttach = (engine: HookEngine, tenant: Tenant) => () => void;

export interface PolicyOptions {
  attach: EngineAttach;
  /** One line for the operator (stderr). */
  log: (line: string) => void;
  /** Quiet time after the last change before a reload. Default 150 ms. */
  debounceMs?: number;
}

/**
 * A tenant's configuration, loaded into an engine and reloaded when one of its files
 * changes. A reload that fails is refused loudly and the last good engine stays.
 */
export class TenantPolicy {
  private current: { engine: HookEngine; detach: () => void } | undefined;
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;
  private again = false;
  private retired = new Set<Promise<void>>();
  /** Reloads that succeeded, and the last refused reload's error (cleared by a good one). */
  reloads = 0;
  lastError: string | undefined;

  constructor(
    readonly tenant: Tenant,
    private readonly options: PolicyOptions,
  ) {}

  get engine(): HookEngine | undefined {
    return this.current?.engine;
  }

  /** The first load: its error is the caller's (the server does not start). */
  async load(): Promise<void> {
    this.swap(await this.build(false));
  }

  /** Watch the config files' folders (editors replace files, which a file watcher would lose). */
  watch(): void {
    const byDir = new Map<string, Set<string>>();
    for (const file of this.tenant.config) {
      const dir = path.dirname(file);
      if (!byDir.has(dir)) byDir.set(dir, new Set());
      byDir.get(dir)!.add(path.basename(file));
    }
    for (const [dir, names] of byDir) {
      const watcher = watch(dir, (_type, name) => {
        if (name === null || names.has(name.toString())) this.schedule();
      });
      watcher.on('error', (error) => this.options.log(`tenant ${this.tenant.name}: cannot watch ${dir}: ${error.message}`));
      this.watchers.push(watcher);
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, this.options.debounceMs ?? 150);
  }

  /** Load the files again; resolves once the new engine serves, or the reload was refused. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        try {
          this.swap(await this.build(true));
          this.reloads++;
          this.lastError = undefined;
          this.options.log(`tenant ${this.tenant.name}: config reloaded from ${this.tenant.config.join(', ')}`);
        } catch (error) {
          this.lastError = error instanceof Error ? error.message : String(error);
          this.options.log(`tenant ${this.tenant.name}: config reload REFUSED, keeping the last good config: ${this.lastError}`);
        }
      } while (this.again);
      this.reloading = undefined;
    })();
    return this.reloading;
  }

  private async build(afresh: boolean): Promise<HookEngine> {
    const [{ engineFor, loadConfig }, { importConfigModulesAfresh }] = await Promise.all([
      import('../config/load.js'),
      import('../config/module.js'),
    ]);
    if (afresh) importConfigModulesAfresh();
    const config = await loadConfig({ files: this.tenant.config, cwd: path.dirname(this.tenant.config[0]!) });
    for (const warning of config.warnings) this.options.log(`tenant ${this.tenant.name}: warning: ${warning}`);
    return engineFor(config);
  }

  private swap(engine: HookEngine): void {
    const old = this.current;
    this.current = { engine, detach: this.options.attach(engine, this.tenant) };
    if (!old) return;
    // The old engine's async hooks finish (and are audited) before it is let go.
    const done: Promise<void> = old.engine.drain().finally(() => {
      old.detach();
      this.retired.delete(done);
    });
    this.retired.add(done);
  }

  /** Stop watching; resolves when every async hook of every engine has finished. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
    await this.reloading;
    await Promise.all(this.retired);
    if (this.current) {
      await this.current.engine.drain();
      this.current.detach();
    }
  }
}
