/**
 * The live state of the account: its recent calls and notifications, kept current by the
 * console's event stream (`api/events`), and a way for pages to hear about engine events.
 */

/** A call as the stream sends it (times in ms of the engine's clock). */
export interface LiveCall {
  sid: string;
  parentCallSid?: string;
  direction: string;
  from: string;
  to: string;
  status: string;
  dateCreated: number;
  startTime?: number;
  endTime?: number;
  duration?: number;
  endedBy?: string;
}

export interface LiveNotification {
  sid: string;
  callSid?: string;
  code: string;
  log: 0 | 1;
  message: string;
  url?: string;
  dateCreated: number;
}

/** An engine event as the stream sends it (see the engine's `EngineEvent`). */
export interface LiveEvent {
  type: string;
  at: number;
  callSid?: string;
  [field: string]: unknown;
}

type Change =
  | { kind: 'calls' }
  | { kind: 'call'; call: LiveCall }
  | { kind: 'event'; event: LiveEvent }
  | { kind: 'notification'; notification: LiveNotification }
  | { kind: 'connection'; connected: boolean };

const ENDED = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** Whether a call status is final. */
export const isEnded = (status: string) => ENDED.has(status);

export const calls = new Map<string, LiveCall>();
export const notifications: LiveNotification[] = [];
const listeners = new Set<(change: Change) => void>();
let source: EventSource | undefined;

/** Hears every change until the returned function is called (a page calls it when it leaves). */
export function listen(listener: (change: Change) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const tell = (change: Change) => {
  for (const listener of [...listeners]) listener(change);
};

/** Opens the stream; `ended` is told when the server refuses it (the session is gone). */
export function connect(ended: () => void): void {
  disconnect();
  const es = new EventSource('api/events');
  source = es;
  es.addEventListener('open', () => tell({ kind: 'connection', connected: true }));
  es.addEventListener('error', () => {
    tell({ kind: 'connection', connected: false });
    // A refused stream is not retried by the browser; a dropped one is.
    if (es.readyState === EventSource.CLOSED && source === es) ended();
  });
  es.addEventListener('snapshot', (e) => {
    const data = JSON.parse((e as MessageEvent).data) as { calls: LiveCall[] };
    calls.clear();
    for (const call of [...data.calls].reverse()) calls.set(call.sid, call);
    tell({ kind: 'calls' });
  });
  es.addEventListener('call', (e) => {
    const { call } = JSON.parse((e as MessageEvent).data) as { call: LiveCall };
    calls.set(call.sid, call);
    tell({ kind: 'call', call });
  });
  es.addEventListener('event', (e) => {
    const { event } = JSON.parse((e as MessageEvent).data) as { event: LiveEvent };
    tell({ kind: 'event', event });
  });
  es.addEventListener('notification', (e) => {
    const { notification } = JSON.parse((e as MessageEvent).data) as { notification: LiveNotification };
    notifications.unshift(notification);
    notifications.length = Math.min(notifications.length, 200);
    tell({ kind: 'notification', notification });
  });
}

export function disconnect(): void {
  source?.close();
  source = undefined;
  calls.clear();
  notifications.length = 0;
}
