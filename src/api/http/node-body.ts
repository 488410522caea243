/**
 * Form and JSON bodies read straight off Node's request when @hono/node-server serves the app:
 * the bytes are collected from the `IncomingMessage` (no web `Request`, `Headers`,
 * `AbortController` and stream per request, which cost more than the rest of a small POST)
 * and left where the handlers and @hono/node-server look first (`c.req`'s body cache, and the
 * request's `rawBody`, from which a `Request` is built when something still asks for one).
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

const decoder = new TextDecoder();

/** A request body with a byte count at most `maxSize`, or `too-large`, or undefined when not read here. */
export type NodeBodyRead = 'read' | 'too-large' | undefined;

/** Whether this body is one the API parses as text (form, JSON, or no type, read as a form). */
function isTextBody(contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase();
  return type === '' || type.includes('json') || type.includes('application/x-www-form-urlencoded');
}

/**
 * Reads the body of `c` from Node's request, when there is one not yet read and of a text type:
 * `read` once its bytes are cached, `too-large` past `maxSize` bytes (announced or received).
 * Undefined when the request is not Node's or not such a body: the caller reads it as before.
 */
export async function readNodeBody(c: Context, maxSize: number): Promise<NodeBodyRead> {
  const incoming = (c.env as { incoming?: IncomingMessage & { rawBody?: unknown } } | undefined)?.incoming;
  if (!incoming || typeof incoming.on !== 'function' || incoming.readableEnded || 'rawBody' in incoming) {
    return undefined;
  }
  const headers = incoming.headers;
  if (!isTextBody(headers['content-type'])) return undefined;
  const announced = headers['content-length'];
  if (announced !== undefined && headers['transfer-encoding'] === undefined && Number(announced) > maxSize) {
    return 'too-large';
  }
  const bytes = await collect(incoming, maxSize);
  if (bytes === undefined) return 'too-large';
  incoming.rawBody = bytes;
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  cache.text = Promise.resolve(decoder.decode(bytes));
  cache.arrayBuffer = Promise.resolve(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  );
  return 'read';
}

/** The request's bytes, or undefined past `maxSize` (the rest is then left unread). */
function collect(incoming: IncomingMessage, maxSize: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error, body?: Buffer) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (err) reject(err);
      else resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) {
        incoming.pause();
        done(undefined, undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onError = (err: Error) => done(err);
    const onClose = () => {
      if (!incoming.readableEnded) done(new Error('the client closed the request before its body was read'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
