import { z } from 'zod';
import { CALL_EVENTS } from './status-callbacks.js';

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
