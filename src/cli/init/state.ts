import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';

/** Where `hookwise init` puts the project's audit trail, approvals and key. */
export type StateLocation = 'project' | 'user';

export const STATE_LOCATIONS: readonly StateLocation[] = ['project', 'user'];

/**
 * `--state user`: the project's audit database, its anchor, the approvals in it
 * and the audit key go to the project's folder in the user's state folder
 * (src/audit/paths.ts), outside the workspace: an agent working in the project
 * cannot reach them even where the guards do not look (its own file tools, a
 * script it writes). `project.json` there records the choice; every store and
 * `hookwise audit`/`approvals` command finds the trail through it. The store is
 * made now, with an `init` record, so its key, anchor and copy of the head exist
 * before the first agent runs (a trail deleted later is then seen as cut).
 */
export async function keepStateInUserFolder(dir: string, print: boolean, say: (line: string) => void): Promise<void> {
  const { projectStateDir, PROJECT_STATE_FILE } = await import('../../audit/paths.js');
  const folder = projectStateDir(dir);
  if (print) {
    say(`--- ${path.join(folder, PROJECT_STATE_FILE)} (the audit trail, approvals and key of this project go to ${folder})`);
    return;
  }
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, PROJECT_STATE_FILE);
  const record = { format: 'hookwise-project-state/1', workspace: path.resolve(dir), created: new Date().toISOString() };
  const db = path.join(folder, 'audit.db');
  // 'wx': a second init keeps the first record, and the trail as it is.
  try {
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    say(`${pc.dim('kept')}     ${folder} (this project's audit trail, approvals and key, outside the workspace)`);
    return;
  }
  const { AuditStore } = await import('../../audit/store.js');
  const store = new AuditStore({ path: db });
  // The trail's first row says where it starts and for which project: from it on, the anchor and hookwise's copy of the head exist.
  store.appendDurable({
    kind: 'init',
    ts: new Date().toISOString(),
    sessionId: 'hookwise',
    data: { state: 'user', workspace: record.workspace },
  });
  store.closeSync();
  say(
    `${pc.green('wrote')}    ${folder}: this project's audit trail, approvals and key, outside the workspace (${path.basename(db)}, audit.key)`,
  );
  if (process.env.HOOKWISE_AUDIT_DB)
    say(`${pc.yellow('note')}     HOOKWISE_AUDIT_DB is set (${process.env.HOOKWISE_AUDIT_DB}) and wins over ${db} while it is`);
}
