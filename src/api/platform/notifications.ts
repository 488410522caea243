import type { Context, Hono } from 'hono';
import { parseDateFilter } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import { type Format, renderList, renderOne, splitFormat } from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { declaredQuery, declareRoute } from '../openapi/declare.js';
import { accountOf, formatOfPath, type PlatformDeps, type PlatformEnv, withFormats } from './context.js';
import * as ops from './operations.js';
import { notificationRep } from './representations.js';

const NOTIFICATION_LIST = { json: 'notifications', xmlList: 'Notifications', xmlItem: 'Notification' };

/** Notifications: the account's list, the call-scoped list (a call's `notifications` link), get. */
export function registerNotifications(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const { store } = deps;

  const list = async (
    c: Context<PlatformEnv>,
    accountSid: string,
    callSid: string | undefined,
    format: Format,
  ) => {
    const query = declaredQuery(c, callSid === undefined ? ops.listNotifications : ops.listCallNotifications);
    const paging = parsePaging(query);
    const log = ops.parseLog(query.Log);
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

  app.on(
    'GET',
    withFormats('/Accounts/:accountSid/Notifications'),
    declareRoute(ops.listNotifications),
    (c) => list(c, accountOf(c), undefined, formatOfPath(c.req.path)),
  );

  const callNotifications = declareRoute(ops.listCallNotifications);
  app.on(
    'GET',
    withFormats('/Accounts/:accountSid/Calls/:callSid/Notifications'),
    callNotifications,
    async (c) => {
      const accountSid = accountOf(c);
      const callSid = c.req.param('callSid') ?? '';
      if (!(await store.calls.get(accountSid, callSid))) throw notFound('Call', callSid);
      return list(c, accountSid, callSid, formatOfPath(c.req.path));
    },
  );

  app.get('/Accounts/:accountSid/Notifications/:file', declareRoute(ops.getNotification), async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    const notification = await store.notifications.get(accountSid, id);
    if (!notification) throw notFound('Notification', id);
    return renderOne(c, format, 'Notification', notificationRep(notification));
  });
}
