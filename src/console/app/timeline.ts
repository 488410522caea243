/**
 * A call's timeline: what the engine reported while this server ran it (verbs, requests, legs,
 * bridges, conferences, queues, input) and what the store keeps (recordings, playable here;
 * gathers; notifications; legs), drawn as a picture and listed as a table.
 */
import { ApiFailure, accountPath, basePath, getConsole, getJson } from './api.js';
import { h, replace } from './dom.js';
import { isEnded, type LiveCall, type LiveEvent, listen } from './live.js';
import type { Page } from './page.js';
import { drawTimeline, type Mark, marksTable } from './timeline-svg.js';
import { webhookList } from './webhooks.js';

interface CallJson {
  sid: string;
  status: string;
  direction: string;
  from: string;
  to: string;
  date_created: string;
  start_time: string;
  end_time: string;
  duration: number;
  ended_by?: string;
  parent_call_sid: string;
}
interface RecordingJson {
  sid: string;
  date_created: string;
  duration: string;
}
interface GatherJson {
  sid: string;
  date_created: string;
  status: string;
  reason: string;
}
interface NotificationJson {
  sid: string;
  date_created: string;
  log: number;
  error_code: string;
  message_text: string;
}

const STATUS_TONE: Record<string, Mark['tone']> = {
  queued: 'info',
  ringing: 'info',
  'in-progress': 'ok',
  completed: 'ok',
  busy: 'warn',
  'no-answer': 'warn',
  canceled: 'warn',
  failed: 'bad',
};

const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

/** Marks of the engine's events, for the call `sid`. */
function eventMarks(sid: string, events: LiveEvent[], end: number): Mark[] {
  const marks: Mark[] = [];
  const statuses = events.filter((e) => e.type === 'call-status' && e.callSid === sid);
  statuses.forEach((e, i) => {
    const status = String(e.status);
    const next = statuses[i + 1]?.at ?? (isEnded(status) ? undefined : end);
    marks.push({
      lane: 'Status',
      at: e.at,
      end: next,
      label: status,
      detail: `status ${status}`,
      tone: STATUS_TONE[status] ?? 'info',
    });
  });
  const responses = new Map<unknown, LiveEvent>();
  for (const e of events) if (e.type === 'response') responses.set(e.id, e);
  const bridges = new Map<unknown, LiveEvent>();
  for (const e of events) {
    switch (e.type) {
      case 'verb':
        if (e.callSid === sid) {
          marks.push({
            lane: 'Verbs',
            at: e.at,
            label: String(e.verb),
            detail: `${e.verb} ${short(e.details ?? '')} (${e.documentUrl})`,
            tone: 'info',
          });
        }
        break;
      case 'request': {
        if (e.callSid !== sid) break;
        const res = responses.get(e.id);
        const status = Number(res?.status ?? 0);
        const tone = res === undefined ? 'info' : status >= 200 && status < 400 ? 'ok' : 'bad';
        const outcome =
          res === undefined ? 'no answer yet' : res.error ? `error ${res.error}` : `HTTP ${status}`;
        marks.push({
          lane: 'Requests',
          at: e.at,
          end: res?.at,
          label: String(e.kind),
          detail: `${e.method} ${e.url}: ${outcome}`,
          tone,
        });
        break;
      }
      case 'leg':
        marks.push({
          lane: 'Legs & bridges',
          at: e.at,
          label: `leg ${e.to}`,
          detail: `${e.callSid} dialed ${e.to} from ${e.parentCallSid}`,
          tone: 'info',
        });
        break;
      case 'bridge': {
        const key = [e.callSid, e.peerSid].sort().join();
        if (e.action === 'start') bridges.set(key, e);
        else {
          const started = bridges.get(key);
          bridges.delete(key);
          marks.push({
            lane: 'Legs & bridges',
            at: started?.at ?? e.at,
            end: e.at,
            label: 'bridged',
            detail: `${e.callSid} with ${e.peerSid}, ended: ${e.reason ?? ''}`,
            tone: 'ok',
          });
        }
        break;
      }
      case 'conference':
        marks.push({
          lane: 'Conference & queue',
          at: e.at,
          label: `${e.action} ${e.name}`,
          detail: `conference ${e.name} (${e.conferenceSid}): ${e.action}`,
          tone: 'info',
        });
        break;
      case 'queue': {
        const q = e.event as { type: string; queueName: string; position?: number };
        const where = q.position === undefined ? '' : ` at position ${q.position}`;
        marks.push({
          lane: 'Conference & queue',
          at: e.at,
          label: `${q.type} ${q.queueName}`,
          detail: `queue ${q.queueName}: ${q.type}${where}`,
          tone: 'info',
        });
        break;
      }
      case 'media':
        marks.push({
          lane: 'Conference & queue',
          at: e.at,
          label: e.muted ? 'muted' : e.held ? 'held' : 'media',
          detail: `muted ${e.muted}, held ${e.held}`,
          tone: 'info',
        });
        break;
      case 'modify':
        marks.push({
          lane: 'Verbs',
          at: e.at,
          label: 'modified',
          detail: `live modification ${short(e.params)}`,
          tone: 'warn',
        });
        break;
      case 'input': {
        const input = e.input as { kind: string; keys?: string; text?: string };
        marks.push({
          lane: 'Input & gathers',
          at: e.at,
          label: input.keys ?? input.text ?? input.kind,
          detail: `${input.kind} ${input.keys ?? input.text ?? ''}${e.heard ? '' : ' (nobody listening)'}`,
          tone: 'info',
        });
        break;
      }
    }
  }
  // A bridge still up runs to the end of the picture.
  for (const e of bridges.values())
    marks.push({
      lane: 'Legs & bridges',
      at: e.at,
      end,
      label: 'bridged',
      detail: `${e.callSid} with ${e.peerSid}`,
      tone: 'ok',
    });
  return marks;
}

const time = (text: string) => (text ? Date.parse(text) : Number.NaN);

export const timelinePage: Page = (view, sid = '') => {
  const heading = h('h1', { tabindex: -1 }, `Call ${sid}`);
  const body = h('div', { class: 'timeline-body' }, h('p', {}, 'Loading…'));
  view.append(h('p', {}, h('a', { href: '#/calls' }, '← All calls')), heading, body);
  let due: ReturnType<typeof setTimeout> | undefined;
  let drawn = 0;
  const draw = async () => {
    const n = ++drawn;
    const acct = accountPath();
    const [call, kept, recordings, dtmf, speech, notes, legs] = await Promise.all([
      getJson<CallJson>(`${acct}/Calls/${sid}.json`),
      getConsole<{ call: LiveCall; events: LiveEvent[]; dropped: number }>(`calls/${sid}/timeline`).catch(
        (err) => {
          if (err instanceof ApiFailure && err.status === 404) return undefined;
          throw err;
        },
      ),
      getJson<{ recordings: RecordingJson[] }>(`${acct}/Recordings.json?CallSid=${sid}`),
      getJson<{ gathers: GatherJson[] }>(`${acct}/Gathers/DTMF.json?CallSid=${sid}`),
      getJson<{ gathers: GatherJson[] }>(`${acct}/Gathers/Speech.json?CallSid=${sid}`),
      getJson<{ notifications: NotificationJson[] }>(`${acct}/Calls/${sid}/Notifications.json`),
      getJson<{ calls: CallJson[] }>(`${acct}/Calls.json?ParentCallSid=${sid}`),
    ]);
    if (n !== drawn) return;
    const from = kept?.call.dateCreated ?? time(call.date_created);
    const ended = time(call.end_time);
    const events = kept?.events ?? [];
    const last = Math.max(from + 1000, ...events.map((e) => e.at), Number.isNaN(ended) ? 0 : ended);
    const marks = eventMarks(sid, events, last);
    for (const r of recordings.recordings) {
      const at = time(r.date_created);
      marks.push({
        lane: 'Recordings',
        at: at - Number(r.duration) * 1000,
        end: at,
        label: r.sid,
        detail: `recording of ${r.duration} s`,
        tone: 'ok',
      });
    }
    for (const g of [...dtmf.gathers, ...speech.gathers]) {
      marks.push({
        lane: 'Input & gathers',
        at: time(g.date_created),
        label: `gather ${g.status}`,
        detail: `${g.sid}: ${g.status} (${g.reason})`,
        tone: g.status === 'success' ? 'ok' : 'warn',
      });
    }
    for (const note of notes.notifications) {
      marks.push({
        lane: 'Notifications',
        at: time(note.date_created),
        label: note.error_code,
        detail: note.message_text,
        tone: note.log === 0 ? 'bad' : 'warn',
      });
    }
    if (!kept && !Number.isNaN(time(call.start_time))) {
      marks.push({
        lane: 'Status',
        at: time(call.start_time),
        end: Number.isNaN(ended) ? last : ended,
        label: call.status,
        detail: `answered, now ${call.status}`,
        tone: STATUS_TONE[call.status] ?? 'info',
      });
    }
    const to = Math.max(last, ...marks.map((m) => m.end ?? m.at));
    const facts = h(
      'dl',
      { class: 'facts' },
      ...[
        ['Status', call.status],
        ['Direction', call.direction],
        ['From', call.from],
        ['To', call.to],
        ['Duration', `${call.duration} s`],
        ['Ended by', call.ended_by ?? ''],
        ['Parent call', call.parent_call_sid],
      ].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v || '—')]),
    );
    const audio = recordings.recordings.map((r) =>
      h(
        'li',
        {},
        h('span', { id: `label-${r.sid}` }, `${r.sid} (${r.duration} s) `),
        h('audio', {
          controls: true,
          preload: 'metadata',
          'aria-labelledby': `label-${r.sid}`,
          src: `${basePath}${acct}/Recordings/${r.sid}.wav`,
        }),
      ),
    );
    replace(
      body,
      facts,
      drawTimeline(marks, from, to, `Timeline of call ${sid}`),
      kept
        ? null
        : h(
            'p',
            { class: 'note' },
            'Verbs and requests are known only for calls this server ran recently; the records below come from the store.',
          ),
      kept && kept.dropped > 0
        ? h('p', { class: 'note' }, `${kept.dropped} later events were not kept.`)
        : null,
      h('h2', {}, 'Webhooks'),
      webhookList(sid, events),
      h('h2', {}, 'Recordings'),
      audio.length > 0 ? h('ul', { class: 'recordings' }, ...audio) : h('p', {}, 'No recording.'),
      h('h2', {}, 'Legs'),
      legs.calls.length > 0
        ? h(
            'ul',
            {},
            ...legs.calls.map((l) =>
              h('li', {}, h('a', { href: `#/calls/${l.sid}` }, l.sid), ` to ${l.to}: ${l.status}`),
            ),
          )
        : h('p', {}, 'No leg.'),
      marksTable(marks, from),
    );
  };
  const redraw = () => {
    clearTimeout(due);
    due = setTimeout(() => {
      draw().catch((err) =>
        replace(body, h('p', { role: 'alert' }, String(err instanceof Error ? err.message : err))),
      );
    }, 150);
  };
  redraw();
  const stop = listen((change) => {
    if (change.kind === 'call' && change.call.sid === sid) redraw();
    if (change.kind === 'event' && change.event.callSid === sid) redraw();
    if (change.kind === 'notification' && change.notification.callSid === sid) redraw();
  });
  return () => {
    stop();
    clearTimeout(due);
  };
};
