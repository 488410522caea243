import type { Hono } from 'hono';
import { notFound } from '../http/errors.js';
import { renderOne, splitFormat } from '../http/format.js';
import { readFields } from '../http/params.js';
import { parseMute } from './call-params.js';
import { accountOf, controlOf, type PlatformDeps, type PlatformEnv } from './context.js';
import { callRep } from './representations.js';

/** Conference participant mute: `POST .../Conferences/{sid}/Participants/{CallSid}.json`, `Mute`. */
export function registerConferences(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  app.post('/Accounts/:accountSid/Conferences/:conferenceSid/Participants/:file', async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'json');
    if (!(await deps.store.calls.get(accountSid, id))) throw notFound('Call', id);
    const mute = parseMute(await readFields(c));
    const call = await controlOf(deps).muteParticipant(accountSid, c.req.param('conferenceSid'), id, mute);
    return renderOne(c, format, 'Call', callRep(call));
  });
}
