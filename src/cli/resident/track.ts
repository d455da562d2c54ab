import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampOf } from '../../config/file-stamp.js';
import { drainModuleLoads, watchModuleLoads, witnessLoad } from '../../config/witness.js';

/**
 * The files a resident's config was loaded from, so that the resident notices when one
 * changes (docs/claude-code.md#the-resident). The config loader's own witness
 * (src/config/witness.ts) names them: what Node's ES module loader loads, at any time,
 * and what `fs.readFileSync` reads while a config loads (jiti reads the TypeScript it
 * transpiles that way, nested relative imports included; so does the CommonJS loader).
 *
 * Packages are not followed file by file: an install rewrites
 * `node_modules/.package-lock.json`, which stands for all of them.
 */
const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx|json)$/;
const OWN_ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export class LoadedFiles {
  private readonly stamps = new Map<string, string>();

  /** Start watching what loads; call once, before the first config is loaded. */
  install(): void {
    watchModuleLoads((file) => this.saw(file));
  }

  /** Run a config load; files it reads count as the config's. */
  async during<T>(load: () => Promise<T>): Promise<T> {
    const { value, files } = await witnessLoad(load);
    for (const file of files) this.saw(file);
    return value;
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
    drainModuleLoads();
    for (const [file, stamp] of this.stamps) if (stampOf(file) !== stamp) return file;
    return undefined;
  }

  /**
   * Take in what a call that just ended loaded (a hook that imports a module when it runs),
   * stamped as it is now: stamped at the next call, an edit made in between would be missed.
   */
  afterCall(): void {
    drainModuleLoads();
  }

  /** Every file watched. */
  get files(): string[] {
    drainModuleLoads();
    return [...this.stamps.keys()];
  }

  /** Every file watched, with its stamp as it was loaded. */
  entries(): Array<[string, string]> {
    drainModuleLoads();
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
