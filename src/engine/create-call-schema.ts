import { z } from 'zod';
import { EngineError } from './errors.js';
import { redactUrl } from './fetch/credentials.js';
import { CALL_EVENTS, type CallEventName, parseCallEvents } from './status-callbacks.js';
import type { CreateCallParams } from './types.js';

const DEFAULT_RING_TIMEOUT = 60;

/**
 * Checks the parameters of `createCall` as the engine receives them (typed, not yet trusted):
 * the ring timeout in seconds and the status callback events, or `invalid-params` naming the field.
 */
export function checkCreateCall(params: CreateCallParams): { timeout: number; events: Set<CallEventName> } {
  for (const field of ['From', 'To', 'Url'] as const) {
    if (typeof params[field] !== 'string' || !params[field].trim()) {
      throw new EngineError('invalid-params', `${field}: required`);
    }
  }
  for (const field of ['Url', 'FallbackUrl', 'StatusCallback'] as const) {
    const v = params[field];
    if (v !== undefined && !URL.canParse(v))
      throw new EngineError('invalid-params', `${field}: not a valid URL: '${redactUrl(v)}'`);
  }
  for (const field of ['Method', 'FallbackMethod', 'StatusCallbackMethod'] as const) {
    const v = params[field];
    if (v !== undefined && v !== 'GET' && v !== 'POST') {
      throw new EngineError('invalid-params', `${field}: must be GET or POST, got '${v}'`);
    }
  }
  const timeout = params.Timeout ?? DEFAULT_RING_TIMEOUT;
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new EngineError('invalid-params', `Timeout: must be a positive number of seconds, got ${timeout}`);
  }
  const events = parseCallEvents(params.StatusCallbackEvent);
  if (typeof events === 'string') throw new EngineError('invalid-params', events);
  return { timeout, events };
}

const method = z.enum(['GET', 'POST']);
const absoluteUrl = z.string().refine((v) => URL.canParse(v), { message: 'must be an absolute URL' });

/**
 * The platform's POST Calls parameters, for boundaries (scenario files, HTTP forms). Numbers may
 * come as strings, events as a comma-separated list or an array.
 */
export const createCallParamsSchema = z
  .object({
    From: z.string().min(1),
    To: z.string().min(1),
    Url: absoluteUrl,
    Method: method.optional(),
    FallbackUrl: absoluteUrl.optional(),
    FallbackMethod: method.optional(),
    StatusCallback: absoluteUrl.optional(),
    StatusCallbackMethod: method.optional(),
    StatusCallbackEvent: z
      .union([z.string(), z.array(z.enum(CALL_EVENTS))])
      .optional()
      .refine(
        (v) =>
          typeof v !== 'string' ||
          v
            .split(/[\s,]+/)
            .filter(Boolean)
            .every((e) => (CALL_EVENTS as readonly string[]).includes(e.toLowerCase())),
        { message: `each event must be one of ${CALL_EVENTS.join(', ')}` },
      ),
    Timeout: z.coerce.number().int().positive().max(600).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
