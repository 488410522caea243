import type { Context, MiddlewareHandler } from 'hono';
import type { StoreWrites } from '../../store/ports.js';
import { ApiError, errorResponse } from './errors.js';

/** Seconds a client is told to wait before trying a write again while the store cannot write. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** 503 `store-unavailable` with `Retry-After`: the store cannot write for now. */
export function storeUnavailable(c: Context, message: string): Response {
  return errorResponse(c, new ApiError(503, 'store-unavailable', message), {
    'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
  });
}

/**
 * Refuses requests that write (any method but GET and HEAD) while the store cannot write, before
 * they do anything: nothing is accepted that could not be recorded. Reads go on.
 */
export function refuseWritesWhileStoreDown(writes: StoreWrites | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!writes || writes.writable || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return storeUnavailable(c, `the store cannot write for now: ${writes.state().error ?? 'unknown error'}`);
  };
}
