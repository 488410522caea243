import type { Context } from 'hono';
import type { AuthVariables } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { QueueObserver } from './observer.js';
import type { CallQueueRouting } from './routing.js';
import type { CallQueueService } from './service.js';

/** Hono environment of the authenticated Call Queuing routes. */
export type CallQueueEnv = { Variables: AuthVariables };

/** What the Call Queuing routes adapt. */
export interface CallQueueDeps {
  service: CallQueueService;
  observer: QueueObserver;
}

/** The call engine's queues, or a 501 saying none is attached. */
export function routingOf(deps: CallQueueDeps): CallQueueRouting {
  const routing = deps.service.routing;
  if (!routing) {
    throw new ApiError(
      501,
      'no-call-engine',
      'this server runs without a call engine: queues are unavailable',
    );
  }
  return routing;
}

/** Reads a JSON object body; 400 `malformed-body` otherwise. */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'malformed-body', 'request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'malformed-body', 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
