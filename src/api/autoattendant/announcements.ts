import type { Hono } from 'hono';
import type { AnnouncementRecord } from '../../store/enterprise/types.js';
import { parseBody, readBody, searchQuery } from '../enterprise/body.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv, enterpriseOf } from '../enterprise/context.js';
import { ok } from '../enterprise/envelope.js';
import { invalidParameter, specError } from '../enterprise/errors.js';
import { parseSearchParams, searchData, windowOf } from '../enterprise/search.js';
import { isoSeconds } from '../enterprise/timestamps.js';
import { announcementFields, checkSpeech } from './announcement-input.js';

/** Where an announcement's audio is served, relative to `{base_url}`; '' before any upload. */
export function announcementFileUri(a: Pick<AnnouncementRecord, 'sid' | 'fileName'>): string {
  return a.fileName === '' ? '' : `/autoattendant/file/announcement/${a.sid}/${a.fileName}`;
}

/** The JSON form of an announcement. */
export function renderAnnouncement(a: AnnouncementRecord) {
  return {
    sid: a.sid,
    name: a.name,
    description: a.description,
    accountEmail: a.accountEmail,
    dateCreated: isoSeconds(a.dateCreated),
    dateUpdated: isoSeconds(a.dateUpdated),
    uri: `/autoattendant/announcement/search/${a.sid}`,
    enterpriseSid: a.enterpriseSid,
    type: a.type,
    body: a.body,
    language: a.language,
    voice: a.voice,
    fileUri: announcementFileUri(a),
  };
}

/** The account's announcement, or error 500. */
export async function announcementOf(deps: EnterpriseDeps, accountSid: string, sid: string) {
  const found = await deps.store.announcements.get(accountSid, sid);
  if (!found) throw specError('announcementNotFound', { sid });
  return found;
}

/** Announcements of the platform's Auto Attendant: create, search, get, update. */
export function registerAnnouncements(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  const enterpriseWithSystem = async (accountSid: string, sid: unknown, body: unknown) => {
    const enterprise = await enterpriseOf(deps, accountSid, sid, body);
    if (!enterprise.autoAttendant) throw specError('autoAttendantNotFound', body);
    return enterprise;
  };

  app.post('/announcement', async (c) => {
    const body = await readBody(c);
    const input = parseBody(announcementFields, body);
    const accountSid = accountOf(c);
    const name = input.name?.trim() ?? '';
    if (name === '') throw invalidParameter('name', 'is required', body);
    const enterprise = await enterpriseWithSystem(accountSid, input.enterpriseSid, body);
    const speech = checkSpeech(input, body);
    const t = deps.now();
    const record: AnnouncementRecord = {
      sid: deps.sids('AN'),
      accountSid,
      enterpriseSid: enterprise.sid,
      name,
      description: input.description ?? '',
      ...speech,
      fileName: '',
      accountEmail: enterprise.accountEmail,
      dateCreated: t,
      dateUpdated: t,
    };
    await deps.store.announcements.put(record);
    return ok(c, renderAnnouncement(record));
  });

  app.get('/announcement/search', async (c) => {
    const query = searchQuery(c);
    const params = parseSearchParams(query, { name: 'name', dateCreated: 'dateCreated' });
    const page = await deps.store.announcements.search({
      accountSid: accountOf(c),
      enterpriseSid: query.enterpriseSid,
      nameContains: query.name,
      ...windowOf(params),
    });
    return ok(
      c,
      searchData({
        path: '/autoattendant/announcement/search',
        query,
        params,
        page,
        render: renderAnnouncement,
      }),
    );
  });

  app.get('/announcement/search/:sid', async (c) =>
    ok(c, renderAnnouncement(await announcementOf(deps, accountOf(c), c.req.param('sid')))),
  );

  app.put('/announcement/:sid', async (c) => {
    const body = await readBody(c);
    const input = parseBody(announcementFields, body);
    const accountSid = accountOf(c);
    const current = await announcementOf(deps, accountSid, c.req.param('sid'));
    const name = input.name === undefined ? current.name : input.name.trim();
    if (name === '') throw invalidParameter('name', 'must not be blank', body);
    const enterprise = await enterpriseWithSystem(
      accountSid,
      input.enterpriseSid ?? current.enterpriseSid,
      body,
    );
    // Fields not given keep their value; the whole is checked again.
    const speech = checkSpeech(
      {
        type: input.type ?? current.type,
        body: input.body ?? current.body,
        language: input.language ?? current.language,
        voice: input.voice ?? current.voice,
      },
      body,
    );
    const record: AnnouncementRecord = {
      ...current,
      enterpriseSid: enterprise.sid,
      name,
      description: input.description ?? current.description,
      ...speech,
      dateUpdated: deps.now(),
    };
    await deps.store.announcements.put(record);
    return ok(c, renderAnnouncement(record));
  });
}
