/**
 * Calls: the account's live and recent calls, their status kept current by the stream, with the
 * operator's actions (hang up, redirect to another document) through the REST API; and the live
 * conferences with their participants (mute, unmute).
 */
import { ApiFailure, accountPath, getJson, postForm } from './api.js';
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

function row(call: LiveCall, status: HTMLElement): HTMLTableRowElement {
  const tr = h(
    'tr',
    { 'data-sid': call.sid, 'data-status': call.status },
    h('td', {}, h('a', { href: `#/calls/${call.sid}` }, call.sid)),
    h('td', {}, call.direction),
    h('td', {}, call.from),
    h('td', {}, call.to),
    h('td', { class: `status status-${call.status}` }, call.status),
    h('td', {}, clockTime(call.dateCreated)),
    h('td', {}, call.duration === undefined ? '' : `${call.duration} s`),
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
        ...['Call', 'Direction', 'From', 'To', 'Status', 'Created', 'Duration', 'Actions'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    body,
  );
  view.append(
    h('h1', { tabindex: -1 }, 'Calls'),
    summary,
    status,
    table,
    h('h2', {}, 'Conferences'),
    conferences,
  );
  const rows = new Map<string, HTMLTableRowElement>();
  const count = () => {
    const live = [...calls.values()].filter((c) => !isEnded(c.status)).length;
    summary.textContent = `${live} live call${live === 1 ? '' : 's'}, ${calls.size} shown.`;
  };
  const drawAll = () => {
    rows.clear();
    body.replaceChildren();
    for (const call of [...calls.values()].reverse()) {
      const tr = row(call, status);
      rows.set(call.sid, tr);
      body.append(tr);
    }
    count();
  };
  // Rows change in place, so a focused button stays focused while its call's status moves on.
  const update = (call: LiveCall) => {
    const tr = rows.get(call.sid);
    if (!tr) {
      const added = row(call, status);
      rows.set(call.sid, added);
      body.prepend(added);
    } else if (tr.dataset.status !== call.status) {
      tr.dataset.status = call.status;
      const cells = tr.cells;
      cells[4].textContent = call.status;
      cells[4].className = `status status-${call.status}`;
      cells[6].textContent = call.duration === undefined ? '' : `${call.duration} s`;
      if (isEnded(call.status)) cells[7].replaceChildren();
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
    else if (change.kind === 'event' && change.event.type === 'conference') refreshConferences();
  });
  return () => {
    stop();
    clearTimeout(conferencesDue);
  };
};
