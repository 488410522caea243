import type { Hono } from 'hono';
import type { Store } from '../../store/ports.js';
import { ApiError, badParameter } from '../http/errors.js';
import { readFields } from '../http/params.js';
import type { CallQueueDeps } from './context.js';
import { normalizePhoneNumber } from './phone-number.js';

const REQUIRED = ['CallSid', 'AccountSid', 'To', 'CallStatus'] as const;

/** Refused without saying which check failed: a caller learns nothing about other accounts. */
const notOwner = () =>
  new ApiError(403, 'not-owner', 'the call is not a call of this account to a provisioned number');

/** Reads `Timestamp` (RFC 2822); the clock's time when absent or unreadable. */
function timeOf(raw: string | undefined, now: () => number): number {
  const t = raw === undefined ? Number.NaN : Date.parse(raw);
  return Number.isFinite(t) ? t : now();
}

/**
 * `POST /callqueue/callback`: where every provisioned number's calls report their status.
 * The engine posts without credentials, so nothing posted is trusted: the number must be
 * provisioned by the posted `AccountSid`, and the call must be that account's call to it.
 * Records the event against the number and call, then answers 204.
 */
export function registerCallback(app: Hono, deps: CallQueueDeps, records: Store): void {
  const { service } = deps;
  const now = () => service.routing?.now() ?? Date.now();
  app.post('/callback', async (c) => {
    const fields = await readFields(c);
    for (const name of REQUIRED) if (!fields[name]) throw badParameter(name, 'is required');
    const phoneNumber = normalizePhoneNumber(fields.To);
    const number = phoneNumber && (await service.store.numbers.findByPhoneNumber(phoneNumber));
    if (!number || number.accountSid !== fields.AccountSid) throw notOwner();
    const live = service.routing?.liveCall(fields.CallSid);
    const call = live ?? (await records.calls.get(number.accountSid, fields.CallSid));
    if (!call || call.accountSid !== number.accountSid || normalizePhoneNumber(call.to) !== phoneNumber) {
      throw notOwner();
    }
    const sequence = Number(fields.SequenceNumber);
    const duration = Number(fields.CallDuration);
    await service.store.events.append({
      accountSid: number.accountSid,
      numberSid: number.sid,
      callSid: fields.CallSid,
      type: 'status',
      at: timeOf(fields.Timestamp, now),
      status: fields.CallStatus,
      sequenceNumber: Number.isInteger(sequence) && fields.SequenceNumber !== '' ? sequence : undefined,
      duration: fields.CallDuration !== undefined && Number.isFinite(duration) ? duration : undefined,
    });
    return c.body(null, 204);
  });
}
