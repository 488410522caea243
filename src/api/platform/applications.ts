import type { Hono } from 'hono';
import { badParameter, notFound } from '../http/errors.js';
import { renderOne, splitFormat } from '../http/format.js';
import { readFields } from '../http/params.js';
import { declareRoute } from '../openapi/declare.js';
import { accountOf, type PlatformDeps, type PlatformEnv } from './context.js';
import { updateApplication } from './operations.js';
import { applicationRep } from './representations.js';

/** Longest accepted `FriendlyName`. */
export const MAX_FRIENDLY_NAME = 256;

/** Applications: rename (`PUT .../Applications/{sid}.json`, `FriendlyName`). */
export function registerApplications(app: Hono<PlatformEnv>, deps: PlatformDeps, now: () => number): void {
  app.put('/Accounts/:accountSid/Applications/:file', declareRoute(updateApplication), async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'json');
    const application = await deps.store.applications.get(accountSid, id);
    if (!application) throw notFound('Application', id);
    const name = (await readFields(c)).FriendlyName;
    if (name === undefined) throw badParameter('FriendlyName', 'is required');
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > MAX_FRIENDLY_NAME) {
      throw badParameter('FriendlyName', `must be 1 to ${MAX_FRIENDLY_NAME} characters`);
    }
    await deps.applicationRenamed?.(accountSid, id, trimmed);
    const renamed = { ...application, friendlyName: trimmed, dateUpdated: now() };
    await deps.store.applications.put(renamed);
    return renderOne(c, format, 'Application', applicationRep(renamed));
  });
}
