/**
 * Reading stdin at start-up. CommonJS (`.cts`): the launcher of `hookwise claude-code`
 * (resident/client.cts) reads stdin before it loads any ES module.
 */
import fs = require('node:fs');

/**
 * Read all of stdin; empty when stdin is a terminal. Read synchronously from fd 0:
 * `process.stdin` builds a stream (tty, net or fs) that costs ~10 ms of start-up,
 * and `hookwise claude-code` starts on every tool call. A descriptor that cannot
 * be read that way (non-blocking, closed) falls back to the stream, keeping what was read.
 */
export async function readStdin(): Promise<string> {
  if (isTerminal()) return '';
  const chunks: Buffer[] = [];
  if (!readStdinSync(chunks)) {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A terminal is a character device; so is /dev/null, whose content is empty anyway.
 * (node:tty's isatty would load the tty and net modules: ~4 ms.)
 */
function isTerminal(): boolean {
  try {
    const terminal = fs.fstatSync(0).isCharacterDevice();
    // Node 20's ES-module resolver stops resolving symlinks after an fstat of a pipe
    // (a shared stat buffer): a linked `hookwise` would then load twice, once from
    // the link's path. Any stat of a regular path puts the buffer right again.
    fs.statSync('/');
    return terminal;
  } catch {
    return process.stdin.isTTY === true;
  }
}

/** True when stdin was read to its end; false when the stream must read the rest. */
function readStdinSync(chunks: Buffer[]): boolean {
  for (;;) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    let bytes: number;
    try {
      bytes = fs.readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      // Windows reports the end of a pipe as an error.
      if ((error as NodeJS.ErrnoException).code === 'EOF') return true;
      return false;
    }
    if (bytes === 0) return true;
    chunks.push(buffer.subarray(0, bytes));
  }
}
