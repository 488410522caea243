import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { ApiError, errorFields } from './http/errors.js';

/** Anything with a web-standard `fetch` handler: the app of `createApp` or `createEngineApp`. */
export interface FetchHandler {
  /** `env` holds Node's `incoming` request (its socket tells the source address). */
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /** Host of request URLs when a request has no `Host` header. Default none (400 then). */
  hostname?: string;
}

/**
 * What frameworks leave on a request: Express keeps the path before its mount point in
 * `originalUrl`, body parsers put what they read in `body` (and some the bytes in `rawBody`).
 */
type HostRequest = IncomingMessage & {
  originalUrl?: unknown;
  body?: unknown;
  rawBody?: unknown;
  _body?: unknown;
};

/** A Node request listener (`node:http`, Express, Fastify's raw request, Koa's `ctx.req`). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: unknown) => Promise<void>;

const BODY_CONSUMED =
  'the request body was already read by another middleware and is not available: mount the rcml ' +
  'listener before body parsers (express.json(), express.urlencoded()...), or keep the raw body in ' +
  'req.rawBody';

/** Bytes of a body a parser already read, when it can be restored faithfully. */
function encodeParsed(body: unknown, contentType: string): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (typeof body !== 'object' || body === null) return undefined;
  if (contentType.includes('application/json')) return Buffer.from(JSON.stringify(body));
  if (contentType === '' || contentType.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      // Repeated fields arrive as arrays; every value is kept.
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
        form.append(name, String(v));
      }
    }
    return Buffer.from(form.toString());
  }
  return undefined;
}

/**
 * A Node request listener over a fetch handler, for embedding the API in an existing server.
 * It honours the mount path (Express strips it from `req.url`; `originalUrl` is used), and reads
 * a body that a parser already consumed from `req.rawBody` or `req.body` (form and JSON bodies
 * are encoded again, repeated fields kept); when the body is gone, it answers 500 with code
 * 20500 and kind `body-consumed`, saying so. It always answers; it never calls `next`.
 */
export function createNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  const listener = getRequestListener((request, env) => handler.fetch(request, env), {
    hostname: options.hostname,
  });
  return async (incoming, res) => {
    const req = incoming as HostRequest;
    const url = req.url;
    if (typeof req.originalUrl === 'string' && req.originalUrl !== url) req.url = req.originalUrl;
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const consumed = req.readableEnded || req._body === true;
      if (hasBody && consumed && !Buffer.isBuffer(req.rawBody)) {
        const bytes = encodeParsed(req.body, String(req.headers['content-type'] ?? ''));
        if (!bytes) {
          const err = new ApiError(500, 'body-consumed', BODY_CONSUMED);
          // Answered here, outside the app: the headers every answer of the app carries.
          res.writeHead(500, {
            'Content-Type': 'application/json',
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
          });
          res.end(JSON.stringify(errorFields(err)));
          return;
        }
        req.rawBody = bytes;
        req.headers['content-length'] = String(bytes.length);
      }
      await listener(req, res);
    } finally {
      req.url = url;
    }
  };
}
