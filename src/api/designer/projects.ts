/** Applications: create (empty or from a template), read, replace the structure, delete. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { ProjectError } from '../../designer/compile.js';
import { unrunnablePatterns } from '../../designer/lint.js';
import { loadProject } from '../../designer/load.js';
import { API_VERSION } from '../../engine/records.js';
import type {
  DesignerAppRecord,
  DesignerKind,
  DesignerMedia,
  DesignerParameter,
} from '../../store/designer/types.js';
import { randomSid } from '../../store/sid.js';
import type { ApplicationRecord } from '../../store/types.js';
import { ApiError, notFound } from '../http/errors.js';
import { MAX_FRIENDLY_NAME } from '../platform/applications.js';
import { buildApp, invalidStructure } from './build.js';
import { appOf, controllerPath, type DesignerDeps, type DesignerEnv } from './context.js';
import { hasControlCharacters } from './filename.js';
import { parseQuery, readJson } from './input.js';
import { emptyProject, templateById } from './templates/index.js';

export const nameField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(MAX_FRIENDLY_NAME, `must be at most ${MAX_FRIENDLY_NAME} characters`)
  .refine((v) => !hasControlCharacters(v), 'must not contain control characters');

/** Query of `POST /projects`. */
export const createProjectQuery = z.object({
  /** Required, except from a template, where the platform's designer names it after the template. */
  name: nameField.optional(),
  kind: z.enum(['voice', 'sms', 'ussd'], { error: 'expected voice, sms or ussd' }).optional(),
  template: z.string().min(1, 'must not be empty').optional(),
});

/** What a new application starts from. */
export interface NewApplication {
  accountSid: string;
  name: string;
  kind: DesignerKind;
  /** Project JSON (any supported version); loaded and upgraded before it is saved. */
  state: unknown;
  settings?: DesignerAppRecord['settings'];
  parameters?: DesignerParameter[];
  media?: DesignerMedia[];
  /** The platform's web trigger settings, from an imported archive. */
  webTrigger?: unknown;
}

/** The `{name, sid, kind}` of a created application. */
export const createdRep = (record: DesignerAppRecord) => ({
  name: record.name,
  sid: record.sid,
  kind: record.kind,
});

/**
 * Loads a structure to be saved. 422 when it does not load, or when a pattern in it cannot run
 * on the bounded regex engine (each listed with its path): saved, it could only fail at run time.
 */
function loadForSave(json: unknown): Extract<ReturnType<typeof loadProject>, { ok: true }> {
  const loaded = loadProject(json);
  if (!loaded.ok) throw invalidStructure(new ProjectError(loaded.problems));
  const patterns = unrunnablePatterns(loaded.project);
  if (patterns.length > 0) throw invalidStructure(new ProjectError(patterns));
  return loaded;
}

/**
 * Saves a new application (structure, parameters, media), builds it, and stores its `{api_root}`
 * application record. 409 when the name is taken, 422 when the structure is invalid.
 */
export async function createApplication(
  deps: DesignerDeps,
  input: NewApplication,
): Promise<DesignerAppRecord> {
  const { designer, store, now } = deps.config;
  const loaded = loadForSave(input.state);
  const t = now();
  const record: DesignerAppRecord = {
    sid: deps.config.newSid?.() ?? randomSid('AP'),
    accountSid: input.accountSid,
    name: input.name,
    kind: input.kind,
    dateCreated: t,
    dateUpdated: t,
    state: loaded.project,
    settings: input.settings ?? { logging: false, loggingRCML: false, loggingES: false },
    ...(input.webTrigger === undefined ? {} : { webTrigger: input.webTrigger }),
  };
  if ((await designer.apps.create(record)) === 'duplicate-name') {
    throw new ApiError(
      409,
      'duplicate-name',
      `name: an application named ${JSON.stringify(input.name)} exists`,
      'name',
    );
  }
  try {
    for (const p of input.parameters ?? []) await designer.parameters.add(record.sid, p);
    for (const m of input.media ?? []) await designer.media.put(record.sid, m);
    const { record: built } = await buildApp(deps, record);
    const application: ApplicationRecord = {
      sid: record.sid,
      accountSid: record.accountSid,
      friendlyName: record.name,
      kind: record.kind,
      voiceCallerIdLookup: false,
      rcmlUrl: controllerPath(deps.config, record.sid),
      apiVersion: API_VERSION,
      dateCreated: t,
      dateUpdated: t,
    };
    await store.applications.put(application);
    return built;
  } catch (err) {
    // Nothing half-made stays behind.
    await designer.apps.delete(record.accountSid, record.sid);
    deps.runtime.forget(record.sid);
    await deps.runtime.announce(record.accountSid, record.sid);
    throw err;
  }
}

/** Removes the application, its parameters, media, log and `{api_root}` record. */
export async function deleteApplication(
  deps: DesignerDeps,
  accountSid: string,
  sid: string,
): Promise<boolean> {
  const removed = await deps.config.designer.apps.delete(accountSid, sid);
  if (!removed) return false;
  deps.runtime.forget(sid);
  await deps.runtime.announce(accountSid, sid);
  await deps.config.store.applications.delete(accountSid, sid);
  return true;
}

/**
 * Replaces an application's saved structure (`PUT /projects/{sid}` and the platform designer's
 * `POST`): 422 as {@link loadForSave}, 400 when `header.projectKind` is not the application's.
 */
export async function saveStructure(
  deps: DesignerDeps,
  record: DesignerAppRecord,
  json: unknown,
): Promise<DesignerAppRecord> {
  const loaded = loadForSave(json);
  if (loaded.project.header.projectKind !== record.kind) {
    throw new ApiError(
      400,
      'invalid-parameter',
      `header.projectKind: the application is ${record.kind}, not ${loaded.project.header.projectKind}`,
      'header.projectKind',
    );
  }
  const saved = { ...record, state: loaded.project, dateUpdated: deps.config.now() };
  if ((await deps.config.designer.apps.update(saved)) !== 'updated')
    throw notFound('Application', record.sid);
  return saved;
}

/** `name`, or `name 2`, `name 3`, ...: the first the account does not have yet. */
export async function uniqueName(deps: DesignerDeps, accountSid: string, name: string): Promise<string> {
  const taken = new Set((await deps.config.designer.apps.list(accountSid)).map((a) => a.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const candidate = `${name.slice(0, MAX_FRIENDLY_NAME - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `/projects` and `/projects/{sid}`. */
export function registerProjects(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  app.get('/projects', async (c) => {
    const list = await deps.config.designer.apps.list(c.get('account').sid);
    return c.json(list.map(createdRep));
  });

  app.post('/projects', async (c) => {
    const query = parseQuery(c, createProjectQuery);
    const template = query.template === undefined ? undefined : templateById(query.template);
    if (query.template !== undefined && !template) throw notFound('Template', query.template);
    const templateKind = template?.tags[0];
    if (query.kind && templateKind && query.kind !== templateKind) {
      throw new ApiError(
        400,
        'invalid-parameter',
        `kind: template ${template?.id} makes ${templateKind} applications, not ${query.kind}`,
        'kind',
      );
    }
    const kind = query.kind ?? templateKind ?? 'voice';
    const account = c.get('account');
    if (query.name === undefined && !template)
      throw new ApiError(400, 'invalid-parameter', 'name: is required', 'name');
    // From a template without a name: the template's name, made unique (`IVR menu 2`, ...).
    const name = query.name ?? (await uniqueName(deps, account.sid, template?.name ?? 'project'));
    const state = template
      ? { ...template.project, header: { ...(template.project.header as object), owner: account.sid } }
      : emptyProject(kind, account.sid);
    const record = await createApplication(deps, { accountSid: account.sid, name, kind, state });
    return c.json(createdRep(record));
  });

  app.get('/projects/:sid', async (c) => c.json((await appOf(c, deps)).state as object));

  app.put('/projects/:sid', async (c) => {
    const record = await appOf(c, deps);
    return c.json((await saveStructure(deps, record, await readJson(c))).state as object);
  });

  app.delete('/projects/:sid', async (c) => {
    const record = await appOf(c, deps);
    await deleteApplication(deps, record.accountSid, record.sid);
    return c.json({ sid: record.sid, deleted: true });
  });
}
