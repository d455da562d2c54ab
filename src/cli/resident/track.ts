import fs from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { LOADER_HOOK } from '../../config/witness.js';

/**
 * The files a resident's config was loaded from, so that the resident notices when one
 * changes (docs/claude-code.md#the-resident). Three ways a file gets loaded, three
 * witnesses: Node's module loader (native ES modules, through a loader hook), the
 * CommonJS cache, and `fs.readFileSync` while a config loads (jiti reads the
 * TypeScript it transpiles that way, nested relative imports included).
 *
 * Packages are not followed file by file: an install rewrites
 * `node_modules/.package-lock.json`, which stands for all of them.
 */
const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx|json)$/;
const OWN_ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export class LoadedFiles {
  private readonly stamps = new Map<string, string>();
  private loading = 0;

  /** Start watching what loads; call once, before the first config is loaded. */
  install(): void {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (url: string) => this.saw(fileURLToPath(url)));
    port1.unref();
    register(`data:text/javascript,${encodeURIComponent(LOADER_HOOK)}`, { data: { port: port2 }, transferList: [port2] });
    const read = fs.readFileSync;
    fs.readFileSync = ((file: fs.PathOrFileDescriptor, options?: unknown) => {
      if (this.loading > 0 && typeof file === 'string') this.saw(path.resolve(file));
      return (read as (f: fs.PathOrFileDescriptor, o?: unknown) => unknown)(file, options);
    }) as typeof fs.readFileSync;
  }

  /** Run a config load; files it reads count as the config's. */
  async during<T>(load: () => Promise<T>): Promise<T> {
    this.loading++;
    try {
      return await load();
    } finally {
      this.loading--;
    }
  }

  /** Files that always count: the config files, and the install stamp of the folders they sit in. */
  add(files: string[]): void {
    for (const file of files) {
      this.remember(file);
      this.remember(path.join(path.dirname(file), 'node_modules', '.package-lock.json'));
    }
  }

  /** The first file that changed (or appeared, or went) since it was loaded; undefined when none did. */
  changed(): string | undefined {
    for (const [file, stamp] of this.stamps) if (stampOf(file) !== stamp) return file;
    return undefined;
  }

  /** Every file watched. */
  get files(): string[] {
    return [...this.stamps.keys()];
  }

  /** Every file watched, with its stamp as it was loaded. */
  entries(): Array<[string, string]> {
    return [...this.stamps];
  }

  private saw(file: string): void {
    if (!SOURCE.test(file) || file.startsWith(`${OWN_ROOT}${path.sep}`)) return;
    if (file.split(path.sep).includes('node_modules') || file.includes(`${path.sep}.hookwise${path.sep}cache${path.sep}`)) return;
    this.remember(file);
  }

  private remember(file: string): void {
    if (!this.stamps.has(file)) this.stamps.set(file, stampOf(file));
  }
}

export function stampOf(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}
