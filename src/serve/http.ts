import type { IncomingMessage, ServerResponse } from 'node:http';
import { HookwiseError } from '../core/errors.js';

export class BodyTooLarge extends HookwiseError {
  override readonly code = 'BODY_TOO_LARGE';
  constructor(
    readonly limit: number,
    /** What arrived before the limit, to tell which event it was. */
    readonly head: string,
  ) {
    super(`request body over the limit of ${limit} bytes`);
  }
}

/** The request body as text, refusing it past `limit` bytes (the rest is not read). */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => {
      req.off('data', onData);
      req.resume();
      reject(new BodyTooLarge(limit, Buffer.concat(chunks).subarray(0, 4096).toString('utf8')));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > limit) tooLarge();
    };
    if (declared > limit) {
      // The head is still read: it names the event, so the refusal can be the event's failure answer.
      const refuse = (chunk?: Buffer) => {
        req.off('end', refuse);
        if (chunk) chunks.push(chunk);
        tooLarge();
      };
      req.once('data', refuse);
      req.once('end', refuse);
      return;
    }
    req.on('data', onData);
    req.once('end', () => {
      if (size <= limit) resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** JSON already written as text (an agent's answer, one line). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': 0, ...headers });
  res.end();
}
