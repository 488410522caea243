/** Notifications: the account's most recent ones, newest first, new ones added as they come. */
import { accountPath, getJson } from './api.js';
import { clockTime, h, replace } from './dom.js';
import { type LiveNotification, listen, notifications } from './live.js';
import type { Page } from './page.js';

interface NotificationJson {
  sid: string;
  call_sid: string;
  date_created: string;
  log: number;
  error_code: string;
  message_text: string;
}
interface Envelope {
  notifications: NotificationJson[];
  total: number;
}

const PAGE = 50;

function row(n: { sid: string; callSid?: string; at: number; log: number; code: string; message: string }) {
  return h(
    'tr',
    { class: n.log === 0 ? 'error' : 'warning' },
    h('td', {}, clockTime(n.at)),
    h('td', {}, n.log === 0 ? 'error' : 'warning'),
    h('td', {}, n.code),
    h('td', {}, n.callSid ? h('a', { href: `#/calls/${n.callSid}` }, n.callSid) : ''),
    h('td', { class: 'detail' }, n.message),
  );
}

const fromLive = (n: LiveNotification) => ({ ...n, at: n.dateCreated });

export const notificationsPage: Page = (view) => {
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'notifications' },
    h('caption', {}, 'Recent notifications, newest first'),
    h(
      'thead',
      {},
      h('tr', {}, ...['Time', 'Level', 'Code', 'Call', 'Message'].map((t) => h('th', { scope: 'col' }, t))),
    ),
    body,
  );
  view.append(h('h1', { tabindex: -1 }, 'Notifications'), table);
  const seen = new Set<string>();
  const add = (n: Parameters<typeof row>[0], first: boolean) => {
    if (seen.has(n.sid)) return;
    seen.add(n.sid);
    if (first) body.prepend(row(n));
    else body.append(row(n));
  };
  const load = async () => {
    // The list is in creation order: the last page holds the most recent.
    const path = `${accountPath()}/Notifications.json`;
    const head = await getJson<Envelope>(`${path}?PageSize=1`);
    const page = Math.max(0, Math.ceil(head.total / PAGE) - 1);
    const last = await getJson<Envelope>(`${path}?PageSize=${PAGE}&Page=${page}`);
    replace(body);
    seen.clear();
    for (const n of notifications) add(fromLive(n), false);
    for (const n of [...last.notifications].reverse()) {
      add(
        {
          sid: n.sid,
          callSid: n.call_sid,
          at: Date.parse(n.date_created),
          log: n.log,
          code: n.error_code,
          message: n.message_text,
        },
        false,
      );
    }
  };
  load().catch((err) =>
    view.append(h('p', { role: 'alert' }, String(err instanceof Error ? err.message : err))),
  );
  return listen((change) => {
    if (change.kind === 'notification') add(fromLive(change.notification), true);
  });
};
