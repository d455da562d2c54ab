/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts. The timer
 * is cleared either way, so an abandoned wait leaves nothing behind.
 */
export function pause(ms: number, signal: AbortSignal | undefined, keepAlive: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (!keepAlive) timer.unref();
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
