/** zod schemas of the form parameters of create-call and modify-call, mapped to the port's types. */
import { z } from 'zod';
import { quoteReceived } from '../../engine/params.js';
import type { CallProgressEvent } from '../../rcml/model.js';
import { ApiError, badParameter } from '../http/errors.js';
import type { CreateCallRequest, ModifyCallRequest } from './call-control.js';

const method = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['GET', 'POST'], { error: 'expected GET or POST' }));

// A repeated field arrives as its values joined by a space, which no URL holds.
const url = z
  .url({ protocol: /^https?$/, error: 'expected an absolute http(s) URL' })
  .refine((s) => !/\s/.test(s), 'expected one absolute http(s) URL (given more than once?)');

const boolText = z
  .enum(['true', 'false'], { error: 'expected true or false' })
  .transform((s) => s === 'true');

const EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const;

/** Phone number (`+`, digits, `*`, `#`), `sip:user@host[?headers]` or `client:name`. */
const destination = z
  .string()
  .min(1, 'is required')
  .superRefine((s, ctx) => {
    if (/^\+?[0-9*#]+$/.test(s) || /^sip:[^@\s]+@[^\s?]+(\?\S*)?$/.test(s) || /^client:[^\s]+$/.test(s))
      return;
    ctx.addIssue({
      code: 'custom',
      message: `expected a phone number, sip:<user>@<host> or client:<name>, received ${quoteReceived(s)}`,
    });
  });

/** Form fields of `POST .../Calls` (also the declared request body). */
export const createCallSchema = z.object({
  From: z.string({ error: 'is required' }).min(1, 'is required'),
  To: z.string({ error: 'is required' }).pipe(destination),
  Url: z.string({ error: 'is required' }).pipe(url),
  Method: method.default('POST'),
  FallbackUrl: url.optional(),
  FallbackMethod: method.default('POST'),
  StatusCallback: url.optional(),
  StatusCallbackMethod: method.default('POST'),
  StatusCallbackEvent: z
    .string()
    .transform((s) => s.split(/[\s,]+/).filter((e) => e !== ''))
    .pipe(z.array(z.enum(EVENTS, { error: `each event must be one of ${EVENTS.join(', ')}` })))
    .optional(),
  Timeout: z
    .string()
    .regex(/^\d+$/, 'expected a whole number of seconds')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(3600, 'must be at most 3600'))
    .default(60),
});

/** Form fields of `POST .../Calls/{CallSid}` (also the declared request body). */
export const modifyCallSchema = z.object({
  Url: url.optional(),
  Method: method.default('POST'),
  Status: z.enum(['canceled', 'completed'], { error: 'expected canceled or completed' }).optional(),
  Mute: boolText.optional(),
  FallbackUrl: url.optional(),
  FallbackMethod: method.default('POST'),
  StatusCallback: url.optional(),
  StatusCallbackMethod: method.default('POST'),
  MoveConnectedCallLeg: boolText.optional(),
  ChildCallMode: z
    .enum(['Hangup', 'Move', 'StayConnected'], { error: 'expected Hangup, Move or StayConnected' })
    .optional(),
});

/** Parses form fields with their declared schema: the first zod issue is a 400 naming the parameter. */
export function parseOrThrow<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const parameter = String(issue.path[0] ?? 'body');
  const missing = fields[parameter] === undefined;
  throw badParameter(parameter, missing ? 'is required' : issue.message);
}

type CreateCallFields = z.output<typeof createCallSchema>;

/** Fields of {@link createCallSchema} that {@link plainCreateCall} leaves to the schema. */
const UNCOMMON_FIELDS = [
  'FallbackUrl',
  'FallbackMethod',
  'StatusCallback',
  'StatusCallbackMethod',
  'StatusCallbackEvent',
  'Timeout',
] as const;

/**
 * The schema's output for the common create-call (From, a phone number To, a plain http(s) Url,
 * maybe Method, nothing else of the schema's), checked directly: zod's pass costs more than the
 * rest of the request's parsing. Undefined for anything else, which the schema then parses (and
 * words the errors of); each check here is one the schema makes, never looser.
 */
export function plainCreateCall(fields: Record<string, string>): CreateCallFields | undefined {
  const { From, To, Url, Method } = fields;
  if (typeof From !== 'string' || From === '' || typeof To !== 'string' || typeof Url !== 'string') return;
  for (const name of UNCOMMON_FIELDS) if (fields[name] !== undefined) return;
  if (!/^\+?[0-9*#]+$/.test(To)) return;
  if (!/^https?:\/\/\S+$/i.test(Url) || !URL.canParse(Url)) return;
  const method = Method === undefined ? 'POST' : Method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') return;
  return {
    From,
    To,
    Url,
    Method: method,
    FallbackMethod: 'POST',
    StatusCallbackMethod: 'POST',
    Timeout: 60,
  };
}

/** Validates `POST .../Calls`. */
export function parseCreateCall(fields: Record<string, string>): CreateCallRequest {
  const p = plainCreateCall(fields) ?? parseOrThrow(createCallSchema, fields);
  const sipHeaders: Record<string, string> = {};
  let to = p.To;
  const q = to.startsWith('sip:') ? to.indexOf('?') : -1;
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(to.slice(q + 1))) sipHeaders[k] = v;
    to = to.slice(0, q);
  }
  for (const [k, v] of Object.entries(fields)) if (/^X-/i.test(k)) sipHeaders[k] = v;
  const events: CallProgressEvent[] = p.StatusCallbackEvent ?? [];
  return {
    from: p.From,
    to,
    url: p.Url,
    method: p.Method,
    fallbackUrl: p.FallbackUrl,
    fallbackMethod: p.FallbackMethod,
    statusCallback: p.StatusCallback,
    statusCallbackMethod: p.StatusCallbackMethod,
    statusCallbackEvents: p.StatusCallback && events.length === 0 ? ['completed'] : [...new Set(events)],
    timeout: p.Timeout,
    sipHeaders,
  };
}

/** Validates `POST .../Calls/{CallSid}`. */
export function parseModifyCall(fields: Record<string, string>): ModifyCallRequest {
  const p = parseOrThrow(modifyCallSchema, fields);
  if (p.Url === undefined && p.Status === undefined && p.Mute === undefined) {
    throw new ApiError(400, 'invalid-parameter', 'one of Url, Status or Mute is required', 'Url');
  }
  return {
    url: p.Url,
    method: p.Method,
    status: p.Status,
    mute: p.Mute,
    fallbackUrl: p.FallbackUrl,
    fallbackMethod: p.FallbackMethod,
    statusCallback: p.StatusCallback,
    statusCallbackMethod: p.StatusCallbackMethod,
    childCallMode: p.ChildCallMode ?? (p.MoveConnectedCallLeg ? 'Move' : 'Hangup'),
  };
}

/** Form fields of muting a conference participant. */
export const muteSchema = z.object({ Mute: boolText });

/** Validates the `Mute` field of a conference participant. */
export function parseMute(fields: Record<string, string>): boolean {
  return parseOrThrow(muteSchema, fields).Mute;
}
