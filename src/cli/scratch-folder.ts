import { rmSync } from 'node:fs';
import { constants } from 'node:os';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Remove a scratch folder whichever way the command ends: the returned function (call
 * it in a `finally`), the process exiting, or Ctrl-C / SIGTERM. On a signal it removes
 * the folder and steps aside; the last listener ends the process (the audit store's
 * shutdown flush exits after closing the store, src/audit/shutdown.ts), and when none
 * is left this one exits with 128 + the signal's number, as the default would.
 */
export function removeWhenDone(dir: string): () => void {
  let done = false;
  const remove = () => {
    if (done) return;
    done = true;
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    if (process.listenerCount(signal) === 0) process.exit(128 + (constants.signals[signal] ?? 0));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', remove);
  return remove;
}
