import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Checkpoints, type Change } from '../../checkpoints/index.js';

/**
 * Whether files a command would delete are the agent's own work of this session: each
 * was added by a step of this session (the checkpoint guard's step log), no other step
 * touched it since, and it still holds what that step left (git's object id, so a
 * person's later edit counts as theirs). Deleting them loses nothing that was there
 * before the session, and the checkpoint holds them for `hookwise undo`
 * (docs/guards.md, the files pack). Without the checkpoint guard there are no steps,
 * and nothing is the session's own.
 */
export type MadeThisSession = (files: readonly string[]) => boolean;

export function madeThisSession(workspace: string, session: string | undefined): MadeThisSession {
  return (files) => {
    if (session === undefined || session === '' || files.length === 0) return false;
    let steps: ReturnType<Checkpoints['steps']>;
    try {
      steps = new Checkpoints(workspace).steps();
    } catch {
      return false;
    }
    // The last change to each path, by any step, and whether this session ever added it.
    const last = new Map<string, { change: Change; session: string }>();
    const added = new Set<string>();
    for (const step of steps) {
      for (const change of step.changes ?? []) {
        last.set(change.path, { change, session: step.session });
        if (step.session === session && change.status === 'added') added.add(change.path);
      }
    }
    return files.every((file) => {
      const rel = path.relative(workspace, file).split(path.sep).join('/');
      const seen = last.get(rel);
      if (!added.has(rel) || seen === undefined || seen.session !== session || seen.change.after === undefined) return false;
      return blobId(file) === seen.change.after.id;
    });
  };
}

/** git's object id of a regular file's content; undefined for anything else. */
function blobId(file: string): string | undefined {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return undefined;
    const content = fs.readFileSync(file);
    return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
  } catch {
    return undefined;
  }
}
