import { iso } from '../engine/dates.js';
import type {
  CallEndedBy,
  CallRecord,
  DtmfGatherRecord,
  MessageRecord,
  NotificationRecord,
  RecordingRecord,
  RecordSink,
  SpeechGatherRecord,
} from '../engine/records.js';
import type { EngineEvent, RequestKind } from '../engine/types.js';
import type { VerbDetails } from '../engine/verb-details.js';
import { describeConnectEvent, type TraceConnectEvent, type TraceSessionDetail } from './connect-trace.js';
import { describeQueueEvent, type TraceQueueEvent } from './queue-trace.js';

/** One call in a trace. Times `at` are seconds since the scenario start; dates are ISO 8601. */
export interface TraceCall {
  sid: string;
  parentCallSid: string | null;
  direction: CallRecord['direction'];
  from: string;
  to: string;
  status: CallRecord['status'];
  startTime: string | null;
  endTime: string | null;
  duration: number | null;
  /** Who ended the call (`caller`, `application`, `api`, `timeout`, `engine`); null while live. */
  endedBy: CallEndedBy | null;
  statuses: Array<{ at: number; status: CallRecord['status'] }>;
  /** Verbs run, with `parent` for nested ones (Gather's Say, Play and Pause prompts). */
  verbs: Array<{ at: number; verb: string; documentUrl: string; parent?: string; details?: VerbDetails }>;
  /**
   * Party input: `heard` when a verb was listening, `used` when it also took it (false for input
   * a verb heard and dropped: keys past `numDigits`, a kind it does not gather, left over);
   * `discarded`: the keys of a partly used press that were dropped.
   */
  inputs: Array<{
    at: number;
    kind: 'dtmf' | 'speech';
    value: string;
    heard: boolean;
    used: boolean;
    discarded?: string;
  }>;
}

export interface TraceRequest {
  at: number;
  callSid: string | null;
  kind: RequestKind;
  method: string;
  url: string;
  params: Record<string, string>;
  /** HTTP status of the answer, 0 for an I/O error, null when still pending at the end. */
  status: number | null;
}

/** The result of a scenario run: byte-identical for the same scenario and seed. */
export interface Trace {
  seed: number;
  until: number;
  epoch: string;
  calls: TraceCall[];
  requests: TraceRequest[];
  recordings: Array<{ at: number; sid: string; callSid: string; duration: number; bytes: number }>;
  gathers: Array<
    | ({ at: number } & Omit<DtmfGatherRecord, 'dateCreated'>)
    | ({ at: number } & Omit<SpeechGatherRecord, 'dateCreated'>)
  >;
  notifications: Array<{
    at: number;
    callSid: string | null;
    code: string;
    level: 'error' | 'warning';
    message: string;
    url: string | null;
  }>;
  messages: Array<{ at: number } & Omit<MessageRecord, 'dateCreated'>>;
  /** Queue events (enqueue, position-change, wait-loop, match, join, bridge, leave...). */
  queueEvents: TraceQueueEvent[];
  /** Dial legs, bridges, conference joins/leaves, media changes and live modifications. */
  connections: TraceConnectEvent[];
  /** Session detail records: Hold/Resume re-invitations. */
  sessionDetails: TraceSessionDetail[];
  /** Everything above in the order it happened, one readable line each. */
  timeline: Array<{ at: number; callSid: string | null; event: string }>;
}

/** Collects engine records and events into a `Trace`. */
export class TraceBuilder {
  private readonly calls = new Map<string, TraceCall>();
  private readonly requests = new Map<number, TraceRequest>();
  readonly trace: Trace;

  constructor(
    private readonly epoch: number,
    seed: number,
    until: number,
  ) {
    this.trace = {
      seed,
      until,
      epoch: iso(epoch),
      calls: [],
      requests: [],
      recordings: [],
      gathers: [],
      notifications: [],
      messages: [],
      queueEvents: [],
      connections: [],
      sessionDetails: [],
      timeline: [],
    };
  }

  /** A scheduled operation the engine refused (unknown or ended call...): `what refused: why`. */
  refused(ms: number, callSid: string | undefined, message: string, what = 'modification'): void {
    this.log(ms, callSid, `${what} refused: ${message}`);
  }

  private log(ms: number, callSid: string | undefined | null, event: string): void {
    this.trace.timeline.push({ at: this.at(ms), callSid: callSid ?? null, event });
  }

  private at(ms: number): number {
    return (ms - this.epoch) / 1000;
  }

  /** The sink to give the engine. */
  readonly sink: RecordSink = {
    sessionDetail: (r) => {
      const { dateCreated, ...rest } = r;
      this.trace.sessionDetails.push({ at: this.at(dateCreated), ...rest });
      this.log(dateCreated, r.callSid, `session detail record: ${r.direction} (${r.offer})`);
    },
    call: (c) => this.onCall(c),
    recording: (r: Readonly<RecordingRecord>, wav) => {
      this.trace.recordings.push({
        at: this.at(r.dateCreated),
        sid: r.sid,
        callSid: r.callSid,
        duration: r.duration,
        bytes: wav.length,
      });
      this.log(r.dateCreated, r.callSid, `recording ${r.sid} (${r.duration} s)`);
    },
    gather: (g) => {
      const result = g.kind === 'dtmf' ? `digits "${g.digits}"` : `speech "${g.speechResult}"`;
      this.log(g.dateCreated, g.callSid, `gather ${g.status}${g.reason ? ` (${g.reason})` : ''}: ${result}`);
      if (g.kind === 'dtmf') {
        const { dateCreated, ...rest } = g;
        this.trace.gathers.push({ at: this.at(dateCreated), ...rest });
      } else {
        const { dateCreated, ...rest } = g;
        this.trace.gathers.push({ at: this.at(dateCreated), ...rest });
      }
    },
    notification: (n: Readonly<NotificationRecord>) => {
      this.log(n.dateCreated, n.callSid, `${n.log === 0 ? 'error' : 'warning'} ${n.code}: ${n.message}`);
      this.trace.notifications.push({
        at: this.at(n.dateCreated),
        callSid: n.callSid ?? null,
        code: n.code,
        level: n.log === 0 ? 'error' : 'warning',
        message: n.message,
        url: n.url ?? null,
      });
    },
    message: (m) => {
      this.log(m.dateCreated, m.callSid, `sms ${m.from} -> ${m.to}: "${m.body}"`);
      const { dateCreated, ...rest } = m;
      this.trace.messages.push({ at: this.at(dateCreated), ...rest });
    },
  };

  /** The inspection hook to give the engine. */
  readonly onEvent = (e: EngineEvent): void => {
    switch (e.type) {
      case 'call-status':
        this.calls.get(e.callSid)?.statuses.push({ at: this.at(e.at), status: e.status });
        this.log(e.at, e.callSid, `status ${e.status}${e.endedBy ? ` (ended by ${e.endedBy})` : ''}`);
        return;
      case 'verb': {
        const verb: TraceCall['verbs'][number] = {
          at: this.at(e.at),
          verb: e.verb,
          documentUrl: e.documentUrl,
        };
        if (e.parent) verb.parent = e.parent;
        if (e.details) verb.details = e.details;
        this.calls.get(e.callSid)?.verbs.push(verb);
        this.log(e.at, e.callSid, e.parent ? `<${e.verb}> in <${e.parent}>` : `<${e.verb}>`);
        return;
      }
      case 'input': {
        const value = e.input.kind === 'dtmf' ? e.input.keys : e.input.text;
        this.calls
          .get(e.callSid)
          ?.inputs.push({ at: this.at(e.at), kind: e.input.kind, value, heard: e.heard, used: e.heard });
        const verb = e.input.kind === 'dtmf' ? 'presses' : 'says';
        this.log(e.at, e.callSid, `party ${verb} "${value}"${e.heard ? '' : ' (not heard)'}`);
        return;
      }
      case 'input-discarded': {
        const value = e.input.kind === 'dtmf' ? e.input.keys : e.input.text;
        const input = this.calls
          .get(e.callSid)
          ?.inputs.findLast((i) => i.used && i.kind === e.input.kind && i.value.endsWith(value));
        if (input && input.value === value) input.used = false;
        else if (input) input.discarded = value;
        this.log(e.at, e.callSid, `input "${value}" not used (${e.reason})`);
        return;
      }
      case 'request': {
        const req: TraceRequest = {
          at: this.at(e.at),
          callSid: e.callSid ?? null,
          kind: e.kind,
          method: e.method,
          url: e.url,
          params: e.params,
          status: null,
        };
        this.requests.set(e.id, req);
        this.trace.requests.push(req);
        this.log(e.at, e.callSid, `${e.method} ${e.url} (${e.kind})`);
        return;
      }
      case 'queue': {
        const { at, accountSid: _account, ...rest } = e.event;
        this.trace.queueEvents.push({ at: this.at(at), ...rest });
        this.log(at, e.callSid, `queue ${describeQueueEvent(e.event)}`);
        // A match concerns both calls: it shows in the timeline of each.
        const other = e.event.type === 'match' ? e.event.arriving.callSid : undefined;
        if (other && other !== e.callSid) this.log(at, other, `queue ${describeQueueEvent(e.event)}`);
        return;
      }
      case 'leg':
      case 'bridge':
      case 'conference':
      case 'media':
      case 'modify': {
        const { at, ...rest } = e;
        this.trace.connections.push({ at: this.at(at), ...rest });
        this.log(at, e.callSid, describeConnectEvent(e));
        return;
      }
      case 'response': {
        const req = this.requests.get(e.id);
        if (req) req.status = e.status;
        this.log(e.at, e.callSid, `answer ${e.status || `I/O error: ${e.error}`} from ${e.url}`);
        return;
      }
    }
  };

  private onCall(c: Readonly<CallRecord>): void {
    let call = this.calls.get(c.sid);
    if (!call) {
      call = {
        sid: c.sid,
        parentCallSid: c.parentCallSid ?? null,
        direction: c.direction,
        from: c.from,
        to: c.to,
        status: c.status,
        startTime: null,
        endTime: null,
        duration: null,
        endedBy: null,
        statuses: [],
        verbs: [],
        inputs: [],
      };
      this.calls.set(c.sid, call);
      this.trace.calls.push(call);
    }
    call.status = c.status;
    call.startTime = c.startTime === undefined ? null : iso(c.startTime);
    call.endTime = c.endTime === undefined ? null : iso(c.endTime);
    call.duration = c.duration ?? null;
    call.endedBy = c.endedBy ?? null;
  }
}
