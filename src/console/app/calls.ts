/**
 * Calls: the account's live and recent calls, their status kept current by the stream, with the
 * operator's actions (hang up, redirect to another document) through the REST API; and the live
 * conferences with their participants (mute, unmute).
 */
import { ApiFailure, accountPath, getJson, postForm } from './api.js';
import { filterForm } from './call-filters.js';
import { type CallFilter, currentVerb, durationText, EngineTime, matches } from './call-state.js';
import { clockTime, h, replace } from './dom.js';
import { calls, isEnded, type LiveCall, listen } from './live.js';
import type { Page } from './page.js';

interface Conference {
  sid: string;
  friendly_name: string;
  status: string;
}

interface Participant {
  call_sid: string;
  muted: boolean;
  hold: boolean;
}

function report(status: HTMLElement, text: string): void {
  status.textContent = text;
}

const failed = (err: unknown) =>
  err instanceof ApiFailure ? `${err.message} (${err.code ?? err.status})` : String(err);

function actions(call: LiveCall, status: HTMLElement): HTMLElement {
  const cell = h('td', {});
  if (isEnded(call.status)) return cell;
  const hangup = h('button', { type: 'button', 'aria-label': `Hang up ${call.sid}` }, 'Hang up');
  hangup.addEventListener('click', async () => {
    try {
      await postForm(`${accountPath()}/Calls/${call.sid}.json`, { Status: 'completed' });
      report(status, `Hung up ${call.sid}.`);
    } catch (err) {
      report(status, `Could not hang up ${call.sid}: ${failed(err)}`);
    }
  });
  const inputId = `redirect-${call.sid}`;
  const url = h('input', { id: inputId, type: 'url', name: 'Url', required: true, placeholder: 'https://…' });
  const form = h(
    'form',
    { class: 'redirect' },
    h('label', { for: inputId }, `Redirect ${call.sid} to`),
    url,
    h('button', { type: 'submit' }, 'Redirect'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await postForm(`${accountPath()}/Calls/${call.sid}.json`, { Url: url.value });
      report(status, `Redirected ${call.sid} to ${url.value}.`);
    } catch (err) {
      report(status, `Could not redirect ${call.sid}: ${failed(err)}`);
    }
  });
  cell.append(h('div', { class: 'actions' }, hangup, form));
  return cell;
}

/** Cells of a row, by column. */
const STATUS = 4;
const NOW = 5;
const DURATION = 7;
const ACTIONS = 8;

function row(call: LiveCall, status: HTMLElement, verb: string, now: number): HTMLTableRowElement {
  const tr = h(
    'tr',
    { 'data-sid': call.sid, 'data-status': call.status },
    h('td', {}, h('a', { href: `#/calls/${call.sid}` }, call.sid)),
    h('td', {}, call.direction),
    h('td', {}, call.from),
    h('td', {}, call.to),
    h('td', { class: `status status-${call.status}` }, call.status),
    h('td', { class: 'verb' }, isEnded(call.status) ? '' : verb),
    h('td', {}, clockTime(call.dateCreated)),
    h('td', { class: 'duration' }, durationText(call, now)),
  );
  tr.append(actions(call, status));
  return tr;
}

async function drawConferences(box: HTMLElement, status: HTMLElement): Promise<void> {
  const { conferences } = await getJson<{ conferences: Conference[] }>(
    `${accountPath()}/Conferences.json?Status=in-progress`,
  );
  const items: HTMLElement[] = [];
  for (const conf of conferences) {
    const { participants } = await getJson<{ participants: Participant[] }>(
      `${accountPath()}/Conferences/${conf.sid}/Participants.json`,
    );
    const list = h('ul', {});
    for (const p of participants) {
      const button = h(
        'button',
        {
          type: 'button',
          'aria-pressed': p.muted ? 'true' : 'false',
          'aria-label': `Mute ${p.call_sid} in ${conf.friendly_name}`,
        },
        // A toggle: the name stays, `aria-pressed` tells the state.
        'Mute',
      );
      button.addEventListener('click', async () => {
        try {
          await postForm(`${accountPath()}/Conferences/${conf.sid}/Participants/${p.call_sid}.json`, {
            Mute: p.muted ? 'false' : 'true',
          });
          report(status, `${p.muted ? 'Unmuted' : 'Muted'} ${p.call_sid}.`);
          await drawConferences(box, status);
        } catch (err) {
          report(status, `Could not change ${p.call_sid}: ${failed(err)}`);
        }
      });
      list.append(h('li', {}, h('a', { href: `#/calls/${p.call_sid}` }, p.call_sid), ' ', button));
    }
    items.push(
      h('section', { class: 'conference' }, h('h3', {}, `${conf.friendly_name} (${conf.sid})`), list),
    );
  }
  replace(box, ...(items.length > 0 ? items : [h('p', {}, 'No conference in progress.')]));
}

export const callsPage: Page = (view) => {
  const status = h('p', { class: 'status-line', role: 'status', 'aria-live': 'polite' });
  const body = h('tbody', {});
  const summary = h('p', { class: 'summary', 'aria-live': 'polite' });
  const conferences = h('div', { class: 'conferences' });
  const table = h(
    'table',
    { class: 'calls' },
    h('caption', {}, 'Live and recent calls, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Call', 'Direction', 'From', 'To', 'Status', 'Now', 'Created', 'Duration', 'Actions'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    body,
  );
  const verbs = new Map<string, string>();
  const time = new EngineTime();
  let filter: CallFilter = { status: '', direction: '', number: '', date: '', sid: '' };
  const show = (call: LiveCall, tr: HTMLTableRowElement) => {
    tr.hidden = !matches(call, filter);
  };
  const form = filterForm((f) => {
    filter = f;
    for (const call of calls.values()) {
      const tr = rows.get(call.sid);
      if (tr) show(call, tr);
    }
    count();
  });
  view.append(
    h('h1', { tabindex: -1 }, 'Calls'),
    form,
    summary,
    status,
    table,
    h('h2', {}, 'Conferences'),
    conferences,
  );
  const rows = new Map<string, HTMLTableRowElement>();
  const count = () => {
    const live = [...calls.values()].filter((c) => !isEnded(c.status)).length;
    const shown = [...calls.values()].filter((c) => matches(c, filter)).length;
    summary.textContent = `${live} live call${live === 1 ? '' : 's'}, ${shown} of ${calls.size} shown.`;
  };
  const add = (call: LiveCall) => {
    time.saw(Math.max(call.dateCreated, call.startTime ?? 0, call.endTime ?? 0));
    const tr = row(call, status, verbs.get(call.sid) ?? '', time.now());
    rows.set(call.sid, tr);
    show(call, tr);
    return tr;
  };
  const drawAll = () => {
    rows.clear();
    body.replaceChildren();
    for (const call of [...calls.values()].reverse()) body.append(add(call));
    count();
  };
  // Running durations move on every second (with the engine's time, see EngineTime).
  const tick = () => {
    const now = time.now();
    for (const call of calls.values()) {
      const tr = rows.get(call.sid);
      if (tr && !isEnded(call.status)) tr.cells[DURATION].textContent = durationText(call, now);
    }
  };
  const ticker = setInterval(tick, 1000);
  // Rows change in place, so a focused button stays focused while its call's status moves on.
  const update = (call: LiveCall) => {
    const tr = rows.get(call.sid);
    if (!tr) body.prepend(add(call));
    else if (tr.dataset.status !== call.status) {
      time.saw(Math.max(call.startTime ?? 0, call.endTime ?? 0));
      tr.dataset.status = call.status;
      const cells = tr.cells;
      cells[STATUS].textContent = call.status;
      cells[STATUS].className = `status status-${call.status}`;
      cells[DURATION].textContent = durationText(call, time.now());
      if (isEnded(call.status)) {
        cells[NOW].textContent = '';
        cells[ACTIONS].replaceChildren();
      }
      show(call, tr);
    }
    count();
  };
  let conferencesDue: ReturnType<typeof setTimeout> | undefined;
  const refreshConferences = () => {
    clearTimeout(conferencesDue);
    conferencesDue = setTimeout(() => {
      drawConferences(conferences, status).catch((err) => report(status, failed(err)));
    }, 100);
  };
  drawAll();
  refreshConferences();
  const stop = listen((change) => {
    if (change.kind === 'calls') drawAll();
    else if (change.kind === 'call') update(change.call);
    else if (change.kind === 'event') {
      time.saw(change.event.at);
      if (change.event.type === 'conference') refreshConferences();
      currentVerb(verbs, change.event);
      const sid = change.event.callSid;
      const tr = sid === undefined ? undefined : rows.get(sid);
      const call = sid === undefined ? undefined : calls.get(sid);
      if (tr && call && change.event.type === 'verb' && !isEnded(call.status)) {
        tr.cells[NOW].textContent = verbs.get(call.sid) ?? '';
        // On a virtual clock time moves only with events: the new verb's time is the call's now.
        tr.cells[DURATION].textContent = durationText(call, time.now());
      }
    }
  });
  return () => {
    stop();
    clearTimeout(conferencesDue);
    clearInterval(ticker);
  };
};
