import type { Context, Hono } from 'hono';
import { SIGNATURE_HEADER, validateRequest } from '../../engine/signature.js';
import type { Store } from '../../store/ports.js';
import { ApiError, badParameter } from '../http/errors.js';
import { readFieldLists } from '../http/params.js';
import type { CallQueueDeps } from './context.js';
import { normalizePhoneNumber } from './phone-number.js';
import { callbackUrl } from './record.js';

const REQUIRED = ['CallSid', 'AccountSid', 'To', 'CallStatus'] as const;

/** The statuses a call reports (the platform's call statuses). */
export const CALLBACK_STATUS_NAMES = [
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
] as const;

const CALLBACK_STATUSES: ReadonlySet<string> = new Set(CALLBACK_STATUS_NAMES);

/**
 * Most status callbacks recorded for one call. The engine sends three (ringing, answered, the
 * final status); the cap keeps a replayed one from growing the store without end.
 */
export const MAX_CALLBACKS_PER_CALL = 20;

/** Refused without saying which check failed: a caller learns nothing about other accounts. */
const notOwner = () =>
  new ApiError(403, 'not-owner', 'the call is not a call of this account to a provisioned number');

const badSignature = () =>
  new ApiError(
    403,
    'invalid-signature',
    `${SIGNATURE_HEADER} is missing or is not the signature of this request with the account's signing key`,
  );

/** A whole number of at most `digits` digits, or undefined when absent. */
function count(fields: Record<string, string>, name: string, digits: number): number | undefined {
  const raw = fields[name];
  if (raw === undefined) return undefined;
  if (!new RegExp(`^\\d{1,${digits}}$`).test(raw)) {
    throw badParameter(
      name,
      `expected a whole number of at most ${digits} digits, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/** Reads `Timestamp` (RFC 2822); the clock's time when absent. */
function timeOf(raw: string | undefined, now: () => number): number {
  if (raw === undefined) return now();
  const t = Date.parse(raw);
  if (!Number.isFinite(t))
    throw badParameter('Timestamp', `expected an RFC 2822 date, got ${JSON.stringify(raw)}`);
  return t;
}

/**
 * Whether the request carries the signature the engine puts on its status callbacks, made with
 * the signing key of the posted account: over the callback URL the numbers are given, or the
 * URL the request reached (a proxy may rewrite the host).
 */
async function signedByAccount(
  c: Context,
  records: Store,
  baseUrl: string,
  accountSid: string,
  params: Record<string, string[]>,
): Promise<boolean> {
  const signature = c.req.header(SIGNATURE_HEADER);
  const key = (await records.accounts.get(accountSid))?.signingKey;
  if (!signature || !key) return false;
  return [callbackUrl(baseUrl), c.req.url].some((url) => validateRequest(key, signature, url, params));
}

/**
 * `POST /callqueue/callback`: where every provisioned number's calls report their status.
 * Only a request signed with the posted account's signing key is read, as the engine signs
 * every status callback; then the number must be provisioned by that account and the call must
 * be the account's call to it. Known statuses and plain numbers only, at most
 * {@link MAX_CALLBACKS_PER_CALL} per call. Records the event against the number and call, then
 * answers 204.
 */
export function registerCallback(app: Hono, deps: CallQueueDeps, records: Store): void {
  const { service } = deps;
  const now = () => service.routing?.now() ?? Date.now();
  app.post('/callback', async (c) => {
    const lists = await readFieldLists(c);
    const fields = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.join(' ')]));
    for (const name of REQUIRED) if (!fields[name]) throw badParameter(name, 'is required');
    if (!(await signedByAccount(c, records, service.baseUrl, fields.AccountSid, lists))) throw badSignature();
    if (!CALLBACK_STATUSES.has(fields.CallStatus)) {
      throw badParameter('CallStatus', `expected one of ${[...CALLBACK_STATUSES].join(', ')}`);
    }
    const sequenceNumber = count(fields, 'SequenceNumber', 6);
    const duration = count(fields, 'CallDuration', 7);
    const at = timeOf(fields.Timestamp, now);
    const phoneNumber = normalizePhoneNumber(fields.To);
    const number = phoneNumber && (await service.store.numbers.findByPhoneNumber(phoneNumber));
    if (!number || number.accountSid !== fields.AccountSid) throw notOwner();
    const live = service.routing?.liveCall(fields.CallSid);
    const call = live ?? (await records.calls.get(number.accountSid, fields.CallSid));
    if (!call || call.accountSid !== number.accountSid || normalizePhoneNumber(call.to) !== phoneNumber) {
      throw notOwner();
    }
    const recorded = await service.store.events.list(number.accountSid, number.sid, {
      callSid: fields.CallSid,
    });
    if (recorded.filter((e) => e.type === 'status').length >= MAX_CALLBACKS_PER_CALL) {
      throw new ApiError(
        429,
        'too-many-callbacks',
        `call ${fields.CallSid} already has ${MAX_CALLBACKS_PER_CALL} status callbacks recorded`,
      );
    }
    await service.store.events.append({
      accountSid: number.accountSid,
      numberSid: number.sid,
      callSid: fields.CallSid,
      type: 'status',
      at,
      status: fields.CallStatus,
      sequenceNumber,
      duration,
    });
    return c.body(null, 204);
  });
}
