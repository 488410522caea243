/** Settings: which log lines the application writes. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { parseJsonBody } from './input.js';

const flag = z.boolean({ error: 'expected true or false' });
/** Body of `POST /projects/{sid}/settings`. */
export const settingsBody = z.strictObject({
  logging: flag.optional(),
  loggingRCML: flag.optional(),
  loggingES: flag.optional(),
});

/** `GET/POST /projects/{sid}/settings`: a POST changes the flags it names, at once (no build). */
export function registerSettings(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  app.get('/projects/:sid/settings', async (c) => c.json((await appOf(c, deps)).settings));

  app.post('/projects/:sid/settings', async (c) => {
    const record = await appOf(c, deps);
    const change = await parseJsonBody(c, settingsBody);
    const updated = { ...record, settings: { ...record.settings, ...change } };
    if ((await deps.config.designer.apps.update(updated)) !== 'updated')
      throw notFound('Application', record.sid);
    deps.runtime.install(updated);
    await deps.runtime.announce(updated.accountSid, updated.sid);
    return c.json(updated.settings);
  });
}
