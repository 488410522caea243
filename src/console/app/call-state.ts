/**
 * What the calls list computes from the stream, free of the DOM: whether a call passes the
 * filters, the current verb of each call, a live call's running time and the engine's time.
 */

/** The fields of a call these read (the stream's `LiveCall`). */
export interface FilteredCall {
  sid: string;
  direction: string;
  from: string;
  to: string;
  status: string;
  dateCreated: number;
  startTime?: number;
  duration?: number;
}

const ENDED = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);
const isEnded = (status: string) => ENDED.has(status);

export interface CallFilter {
  status: string;
  direction: string;
  number: string;
  date: string;
  sid: string;
}

export const STATUSES = [
  'live',
  'ended',
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
];
export const DIRECTIONS = ['inbound', 'outbound-api', 'outbound-dial'];

/** Whether a call passes the filter (empty fields match everything). */
export function matches(call: FilteredCall, f: CallFilter): boolean {
  if (f.status === 'live' && isEnded(call.status)) return false;
  if (f.status === 'ended' && !isEnded(call.status)) return false;
  if (f.status && f.status !== 'live' && f.status !== 'ended' && call.status !== f.status) return false;
  if (f.direction && call.direction !== f.direction) return false;
  const digits = f.number.replace(/[^0-9a-z:@.*#+]/gi, '');
  if (digits && !call.from.includes(digits) && !call.to.includes(digits)) return false;
  if (f.date && new Date(call.dateCreated).toISOString().slice(0, 10) !== f.date) return false;
  if (f.sid && !call.sid.toLowerCase().includes(f.sid.trim().toLowerCase())) return false;
  return true;
}

/**
 * The engine's time as the stream tells it: the newest event time seen, moved on with the
 * browser's clock while the two agree (a real clock); on a virtual clock, whose time jumps with
 * `POST /sim/Advance`, it moves only with the events.
 */
export class EngineTime {
  private newest = 0;
  private seenAt = 0;

  saw(at: number): void {
    if (at <= this.newest) return;
    this.newest = at;
    this.seenAt = Date.now();
  }

  now(): number {
    const elapsed = Date.now() - this.seenAt;
    const inStep = Math.abs(this.newest - this.seenAt) < 5000;
    return inStep ? this.newest + elapsed : this.newest;
  }
}

/** `Say`, `Gather>Say`: the newest verb of each call. */
export function currentVerb(
  verbs: Map<string, string>,
  event: { type: string; callSid?: string; [field: string]: unknown },
): void {
  if (event.type !== 'verb' || event.callSid === undefined) return;
  verbs.set(
    event.callSid,
    event.parent ? `${String(event.parent)}>${String(event.verb)}` : String(event.verb),
  );
}

/** A live call's running time, or an ended call's duration. */
export function durationText(call: FilteredCall, now: number): string {
  if (call.duration !== undefined) return `${call.duration} s`;
  if (isEnded(call.status)) return '';
  const since = call.startTime ?? call.dateCreated;
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  return `${seconds} s${call.startTime === undefined ? ' (not answered)' : ''}`;
}
