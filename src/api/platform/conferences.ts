import type { Context, Hono } from 'hono';
import {
  API_VERSION,
  type ConferenceRecord,
  type ConferenceStatus,
  type ParticipantRecord,
} from '../../engine/records.js';
import { parseDateFilter, rfc2822 } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import { type Format, type Representation, renderList, renderOne, splitFormat } from '../http/format.js';
import { listDocument, pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { readFields } from '../http/params.js';
import { declaredQuery, declareRoute } from '../openapi/declare.js';
import { parseMute } from './call-params.js';
import {
  accountOf,
  controlOf,
  formatOfPath,
  type PlatformDeps,
  type PlatformEnv,
  withFormats,
} from './context.js';
import * as ops from './operations.js';
import { callRep } from './representations.js';

const CONFERENCE_LIST = { json: 'conferences', xmlList: 'Conferences', xmlItem: 'Conference' };
const PARTICIPANT_LIST = { json: 'participants', xmlList: 'Participants', xmlItem: 'Participant' };

const conferenceUri = (accountSid: string, sid: string) =>
  `/${API_VERSION}/Accounts/${accountSid}/Conferences/${sid}`;

export function conferenceRep(c: ConferenceRecord): Representation {
  const uri = conferenceUri(c.accountSid, c.sid);
  return [
    ['Sid', 'sid', c.sid],
    ['DateCreated', 'date_created', rfc2822(c.dateCreated)],
    ['DateUpdated', 'date_updated', rfc2822(c.dateUpdated)],
    ['AccountSid', 'account_sid', c.accountSid],
    ['FriendlyName', 'friendly_name', c.friendlyName],
    ['Status', 'status', c.status],
    ['ApiVersion', 'api_version', API_VERSION],
    ['Uri', 'uri', `${uri}.json`],
    ['SubresourceUris', 'subresource_uris', [['Participants', 'participants', `${uri}/Participants.json`]]],
  ];
}

export function participantRep(room: ConferenceRecord, p: ParticipantRecord): Representation {
  return [
    ['CallSid', 'call_sid', p.callSid],
    ['ConferenceSid', 'conference_sid', room.sid],
    ['AccountSid', 'account_sid', room.accountSid],
    ['DateCreated', 'date_created', rfc2822(p.joinedAt)],
    ['DateUpdated', 'date_updated', rfc2822(p.joinedAt)],
    ['Muted', 'muted', p.muted],
    ['Hold', 'hold', p.hold],
    ['StartConferenceOnEnter', 'start_conference_on_enter', p.startConferenceOnEnter],
    ['EndConferenceOnExit', 'end_conference_on_exit', p.endConferenceOnExit],
    ['Uri', 'uri', `${conferenceUri(room.accountSid, room.sid)}/Participants/${p.callSid}.json`],
  ];
}

/** One page of a room's participants (a room has few: paged in memory), with the list envelope. */
function participantPage(
  c: Context<PlatformEnv>,
  room: ConferenceRecord,
  all: ParticipantRecord[],
  query: Record<string, string>,
): Response {
  const paging = parsePaging(query);
  const after = paging.afterSid === undefined ? -1 : all.findIndex((p) => p.callSid === paging.afterSid);
  const offset = after >= 0 ? after + 1 : paging.page * paging.pageSize;
  const fits = Math.max(0, Math.min(paging.pageSize, paging.limit - offset));
  const items = all.slice(offset, offset + fits);
  const doc = listDocument({
    path: c.req.path,
    query,
    paging,
    matched: all.length,
    offset,
    items: items.map((p) => participantRep(room, p)),
    lastSid: items.at(-1)?.callSid,
    names: PARTICIPANT_LIST,
    withLimit: false,
  });
  return renderList(c, formatOfPath(c.req.path), doc);
}

/**
 * Conferences (list, get) and their participants (list, get, mute). Rooms are read from the
 * store, where the engine running each one records it, so every node of a cluster answers the
 * same; a mute goes to the engine running the participant's call.
 */
export function registerConferences(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const { store } = deps;
  const roomOf = async (accountSid: string, sid: string) => {
    const room = await store.conferences.get(accountSid, sid);
    if (!room) throw notFound('Conference', sid);
    return room;
  };

  app.on(
    'GET',
    withFormats('/Accounts/:accountSid/Conferences'),
    declareRoute(ops.listConferences),
    async (c) => {
      const accountSid = accountOf(c);
      const query = declaredQuery(c, ops.listConferences);
      const paging = parsePaging(query);
      // A single value: a date keeps its whole day, a date-time its whole second.
      const created =
        query.DateCreated === undefined ? undefined : parseDateFilter('DateCreated', query.DateCreated);
      const updated =
        query.DateUpdated === undefined ? undefined : parseDateFilter('DateUpdated', query.DateUpdated);
      const page = await store.conferences.list({
        accountSid,
        friendlyName: query.FriendlyName,
        status: query.Status as ConferenceStatus | undefined,
        createdFrom: created?.first,
        createdTo: created?.last,
        updatedFrom: updated?.first,
        updatedTo: updated?.last,
        ...windowOf(paging),
      });
      const doc = pageDocument({
        path: c.req.path,
        query,
        paging,
        page,
        rep: conferenceRep,
        names: CONFERENCE_LIST,
        withLimit: false,
      });
      return renderList(c, formatOfPath(c.req.path), doc);
    },
  );

  app.get('/Accounts/:accountSid/Conferences/:file', declareRoute(ops.getConference), async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    return renderOne(c, format, 'Conference', conferenceRep(await roomOf(accountSid, id)));
  });

  const participants = declareRoute(ops.listParticipants);
  app.on(
    'GET',
    withFormats('/Accounts/:accountSid/Conferences/:conferenceSid/Participants'),
    participants,
    async (c) => {
      const accountSid = accountOf(c);
      const room = await roomOf(accountSid, c.req.param('conferenceSid') ?? '');
      const query = declaredQuery(c, ops.listParticipants);
      const muted = ops.parseBool('Muted', query.Muted);
      const hold = ops.parseBool('Hold', query.Hold);
      const participants = room.participants.filter(
        (p) => (muted === undefined || p.muted === muted) && (hold === undefined || p.hold === hold),
      );
      return participantPage(c, room, participants, query);
    },
  );

  const participant = async (c: Context<PlatformEnv>, fallback: Format) => {
    const accountSid = accountOf(c);
    const room = await roomOf(accountSid, c.req.param('conferenceSid') ?? '');
    const { id, format } = splitFormat(c.req.param('file') ?? '', fallback);
    const p = room.participants.find((x) => x.callSid === id);
    if (!p) throw notFound('Participant', id);
    return { room, format, p };
  };

  app.get(
    '/Accounts/:accountSid/Conferences/:conferenceSid/Participants/:file',
    declareRoute(ops.getParticipant),
    async (c) => {
      const { room, format, p } = await participant(c, 'xml');
      return renderOne(c, format, 'Participant', participantRep(room, p));
    },
  );

  /** The platform's mute: answers the participant's call, as before the Participants resource existed. */
  app.post(
    '/Accounts/:accountSid/Conferences/:conferenceSid/Participants/:file',
    declareRoute(ops.updateParticipant),
    async (c) => {
      const accountSid = accountOf(c);
      const { id, format } = splitFormat(c.req.param('file'), 'json');
      if (!(await deps.store.calls.get(accountSid, id))) throw notFound('Call', id);
      const mute = parseMute(await readFields(c));
      const room = c.req.param('conferenceSid') ?? '';
      const call = await controlOf(deps).muteParticipant(accountSid, room, id, mute);
      return renderOne(c, format, 'Call', callRep(call));
    },
  );
}
