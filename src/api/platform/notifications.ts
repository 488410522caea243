import type { Context, Hono } from 'hono';
import { parseDateFilter } from '../http/dates.js';
import { badParameter, notFound } from '../http/errors.js';
import { type Format, renderList, renderOne, splitFormat } from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { queryOf } from '../http/params.js';
import { accountOf, formatOfPath, type PlatformDeps, type PlatformEnv, withFormats } from './context.js';
import { notificationRep } from './representations.js';

const NOTIFICATION_LIST = { json: 'notifications', xmlList: 'Notifications', xmlItem: 'Notification' };

/** `Log` filter: `0` (errors) or `1` (warnings); 400 naming it otherwise. */
function logFilter(raw: string | undefined): 0 | 1 | undefined {
  if (raw === undefined) return undefined;
  if (raw === '0' || raw === '1') return raw === '0' ? 0 : 1;
  throw badParameter('Log', `expected 0 (error) or 1 (warning), got ${JSON.stringify(raw)}`);
}

/** Notifications: the account's list, the call-scoped list (a call's `notifications` link), get. */
export function registerNotifications(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const { store } = deps;

  const list = async (
    c: Context<PlatformEnv>,
    accountSid: string,
    callSid: string | undefined,
    format: Format,
  ) => {
    const query = queryOf(c);
    const paging = parsePaging(query);
    const log = logFilter(query.Log);
    // A single value: a date keeps its whole day, a date-time its whole second.
    const date =
      query.MessageDate === undefined ? undefined : parseDateFilter('MessageDate', query.MessageDate);
    const page = await store.notifications.list({
      accountSid,
      callSid: callSid ?? query.CallSid,
      log,
      createdFrom: date?.first,
      createdTo: date?.last,
      ...windowOf(paging),
    });
    const doc = pageDocument({
      path: c.req.path,
      query,
      paging,
      page,
      rep: notificationRep,
      names: NOTIFICATION_LIST,
      withLimit: false,
    });
    return renderList(c, format, doc);
  };

  app.on('GET', withFormats('/Accounts/:accountSid/Notifications'), (c) =>
    list(c, accountOf(c), undefined, formatOfPath(c.req.path)),
  );

  app.on('GET', withFormats('/Accounts/:accountSid/Calls/:callSid/Notifications'), async (c) => {
    const accountSid = accountOf(c);
    const callSid = c.req.param('callSid') ?? '';
    if (!(await store.calls.get(accountSid, callSid))) throw notFound('Call', callSid);
    return list(c, accountSid, callSid, formatOfPath(c.req.path));
  });

  app.get('/Accounts/:accountSid/Notifications/:file', async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    const notification = await store.notifications.get(accountSid, id);
    if (!notification) throw notFound('Notification', id);
    return renderOne(c, format, 'Notification', notificationRep(notification));
  });
}
