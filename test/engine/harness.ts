import { createEngine, type Engine, type EngineOptions } from '../../src/engine/index.js';
import type {
  CallRecord,
  ConferenceRecord,
  GatherRecord,
  MessageRecord,
  NotificationRecord,
  RecordingRecord,
  SessionDetailRecord,
} from '../../src/engine/records.js';
import type { EngineEvent, HandlerRequest } from '../../src/engine/types.js';

/** An app: fixed RCML, or a function of the request returning RCML. */
export type App = string | ((req: HandlerRequest) => string);

/** Engine on the virtual clock with in-process apps and every record and event captured. */
export interface Harness {
  engine: Engine;
  calls: Map<string, CallRecord[]>;
  recordings: Array<{ record: RecordingRecord; wav: Uint8Array }>;
  gathers: GatherRecord[];
  notifications: NotificationRecord[];
  messages: MessageRecord[];
  sessionDetails: SessionDetailRecord[];
  /** Every room record reported, in order. */
  conferences: ConferenceRecord[];
  events: EngineEvent[];
  requests: Array<Extract<EngineEvent, { type: 'request' }>>;
  /** Verbs run on a call in order; nested ones as `Parent/Verb` (e.g. `Gather/Say`). */
  verbs(callSid: string): string[];
  statuses(callSid: string): string[];
}

export const BASE = 'http://app.test';

export function harness(apps: Record<string, App> = {}, options: EngineOptions = {}): Harness {
  const h: Harness = {
    engine: undefined as unknown as Engine,
    calls: new Map(),
    recordings: [],
    gathers: [],
    notifications: [],
    messages: [],
    sessionDetails: [],
    conferences: [],
    events: [],
    requests: [],
    verbs: (sid) =>
      h.events.flatMap((e) =>
        e.type === 'verb' && e.callSid === sid ? [e.parent ? `${e.parent}/${e.verb}` : e.verb] : [],
      ),
    statuses: (sid) => (h.calls.get(sid) ?? []).map((c) => c.status),
  };
  h.engine = createEngine({
    seed: 7,
    ...options,
    sink: {
      call: (c) => {
        const list = h.calls.get(c.sid) ?? [];
        list.push({ ...c });
        h.calls.set(c.sid, list);
      },
      recording: (record, wav) => h.recordings.push({ record: { ...record }, wav }),
      gather: (g) => h.gathers.push({ ...g }),
      notification: (n) => h.notifications.push({ ...n }),
      message: (m) => h.messages.push({ ...m }),
      sessionDetail: (r) => h.sessionDetails.push({ ...r }),
      conference: (r) => h.conferences.push(structuredClone(r)),
    },
    onEvent: (e) => {
      h.events.push(e);
      if (e.type === 'request') h.requests.push(e);
    },
  });
  // Anything else under BASE is a 404, as a real server would answer.
  h.engine.registerHandler(`${BASE}/`, () => ({ status: 404, contentType: 'text/plain', body: 'not found' }));
  for (const [path, app] of Object.entries(apps)) {
    h.engine.registerHandler(BASE + path, (req) => ({
      status: 200,
      contentType: 'text/xml',
      body: typeof app === 'string' ? app : app(req),
    }));
  }
  return h;
}

/** Wraps verbs in a Response element. */
export const rcml = (body: string): string => `<Response>${body}</Response>`;

/** Places an inbound call to a number served by `path`, runs until idle, returns the final record. */
export async function callIn(
  h: Harness,
  path: string,
  from = '+15550001',
  to = '+15559999',
): Promise<CallRecord> {
  h.engine.setNumber(to, { voiceUrl: BASE + path });
  const call = h.engine.incomingCall(from, to);
  await h.engine.runUntilIdle();
  return h.engine.getCall(call.sid)!;
}
