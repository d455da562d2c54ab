import { existsSync, linkSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrateSqlite } from './migrations.js';

/**
 * Makes a new audit database whole before anyone can see it: built under a temp
 * name (WAL mode, every migration), closed, then linked into place. A writer killed
 * while creating the trail leaves a temp file, never a database without its tables
 * that `verify` could only call foreign. `link` fails when the file exists, so two
 * writers creating one trail at once keep the first one's, and write into it.
 */
export function createDatabaseOnce(file: string): void {
  if (existsSync(file)) return;
  const temp = `${file}.${process.pid}.creating`;
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${temp}${suffix}`, { force: true });
  };
  remove();
  try {
    const db = new Database(temp);
    try {
      db.pragma('journal_mode = WAL');
      migrateSqlite(db);
    } finally {
      // The last connection to close folds the log into the file and removes it.
      db.close();
    }
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    remove();
  }
}
