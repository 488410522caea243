import type { Readable } from 'node:stream';

/** A body read past its byte cap when the cap is a hard limit. */
export class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`response body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** How much of a body to read: `fail` past the cap, or `truncate` (keep the first bytes). */
export interface BodyCap {
  bytes: number;
  past: 'fail' | 'truncate';
}

/**
 * Reads a response body chunk by chunk and stops at the cap: the rest is never read (the
 * stream is destroyed, which closes the connection), so an endless or huge body costs at most
 * `cap.bytes` of memory.
 */
export async function readCapped(body: Readable, cap: BodyCap): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = cap.bytes - size;
      if (chunk.length > room) {
        if (cap.past === 'fail') throw new BodyTooLargeError(cap.bytes);
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size = cap.bytes;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (!body.readableEnded) body.destroy();
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}
