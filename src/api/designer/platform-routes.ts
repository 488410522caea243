/**
 * The platform designer's own verbs and routes beside the documented ones: save with `POST /projects/{sid}`,
 * set parameter values with `PUT /projects/{sid}/parameters`, `GET .../info`, `PUT .../rename`,
 * `PUT .../upgrade`, and the web trigger settings `GET`/`POST .../cc` (kept in exports).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { CURRENT_VERSION } from '../../designer/schema.js';
import type { DesignerAppRecord } from '../../store/designer/types.js';
import { ApiError, notFound } from '../http/errors.js';
import { buildApp } from './build.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { parseInput, parseJsonBody, parseQuery, readJson } from './input.js';
import { nameField, saveStructure } from './projects.js';

/** Body of `PUT /projects/{sid}/parameters`: values of existing parameters, by name. */
export const parameterValuesBody = z.object({
  parameters: z.array(
    z.object({
      name: z.string({ error: 'is required' }),
      value: z
        .string()
        .max(10_000, 'must be at most 10000 characters')
        .nullish()
        .transform((v) => v ?? undefined),
      description: z.string().nullish(),
    }),
    { error: 'is required (a list of {name, value})' },
  ),
});

/** Query of `PUT /projects/{sid}/rename`. */
export const renameQuery = z.object({ newName: nameField });

/**
 * The platform's web trigger settings (`cc`): how a call is started from a web request. Stored,
 * served and exported as the platform keeps them.
 */
export const webTriggerBody = z
  .strictObject({
    lanes: z
      .array(
        z.strictObject({
          startPoint: z
            .strictObject({
              rcmlUrl: z.string().max(2048).nullish(),
              to: z.string().max(256).nullish(),
              from: z.string().max(256).nullish(),
            })
            .nullish(),
        }),
      )
      .max(100, 'at most 100 lanes')
      .nullish(),
    accessToken: z.string().max(256).nullish(),
    userParamScope: z.enum(['module', 'application']).nullish(),
  })
  .nullable();

/** The web trigger settings of an application, as stored. */
export type WebTrigger = NonNullable<z.infer<typeof webTriggerBody>>;

export function registerPlatformRoutes(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const { designer, store, now } = deps.config;

  // The platform's designer saves with POST; the same as PUT.
  app.post('/projects/:sid', async (c) => {
    const record = await appOf(c, deps);
    return c.json((await saveStructure(deps, record, await readJson(c))).state as object);
  });

  app.get('/projects/:sid/info', async (c) => {
    const record = await appOf(c, deps);
    return c.json((record.state as { header?: object }).header ?? null);
  });

  app.put('/projects/:sid/parameters', async (c) => {
    const record = await appOf(c, deps);
    const body = await parseJsonBody(c, parameterValuesBody);
    const existing = await designer.parameters.list(record.sid);
    for (const given of body.parameters) {
      if (!existing.some((p) => p.name === given.name)) throw notFound('Parameter', given.name);
    }
    for (const p of existing) {
      const given = body.parameters.find((g) => g.name === p.name);
      if (!given) continue;
      const updated = {
        name: p.name,
        description: p.description,
        ...(given.value === undefined ? {} : { value: given.value }),
      };
      await designer.parameters.update(record.sid, updated);
    }
    return c.json({ parameters: await designer.parameters.list(record.sid) });
  });

  app.put('/projects/:sid/rename', async (c) => {
    const { newName } = parseQuery(c, renameQuery);
    const record = await appOf(c, deps);
    const t = now();
    const outcome = await designer.apps.update({ ...record, name: newName, dateUpdated: t });
    if (outcome === 'duplicate-name') {
      throw new ApiError(
        409,
        'duplicate-name',
        `newName: an application named ${JSON.stringify(newName)} exists`,
        'newName',
      );
    }
    if (outcome === 'missing') throw notFound('Application', record.sid);
    const application = await store.applications.get(record.accountSid, record.sid);
    if (application) await store.applications.put({ ...application, friendlyName: newName, dateUpdated: t });
    return c.json({ name: newName, sid: record.sid, kind: record.kind });
  });

  // Saved structures are upgraded when they are saved or imported, so this only rebuilds, as
  // the platform's upgrade does after upgrading.
  app.put('/projects/:sid/upgrade', async (c) => {
    const record = await appOf(c, deps);
    const { record: built } = await buildApp(deps, record);
    return c.json({ sid: built.sid, projectVersion: CURRENT_VERSION, version: built.build?.version });
  });

  app.get('/projects/:sid/cc', async (c) => {
    const record = await appOf(c, deps);
    if (!record.webTrigger) throw notFound('Web trigger of application', record.sid);
    return c.json(record.webTrigger);
  });

  app.post('/projects/:sid/cc', async (c) => {
    const record = await appOf(c, deps);
    const info = parseInput(webTriggerBody, await readJson(c)) ?? undefined;
    const updated: DesignerAppRecord = { ...record, webTrigger: info, dateUpdated: now() };
    if (info === undefined) delete updated.webTrigger;
    if ((await designer.apps.update(updated)) !== 'updated') throw notFound('Application', record.sid);
    return c.json(info ?? null);
  });
}
