/**
 * Mounts the enterprise areas (the `/enterprises` extension, Auto Attendant, Task Router) on an
 * app: each under `{base_url}`, behind the platform's Basic authentication, answering errors
 * as `{errorCode, message, data}`.
 */
import { type Context, Hono } from 'hono';
import { createMemoryEnterpriseStore } from '../../store/enterprise/memory.js';
import type { EnterpriseStore } from '../../store/enterprise/ports.js';
import type { AccountRepository } from '../../store/ports.js';
import { randomSid, type SidFactory } from '../../store/sid.js';
import { isAnnouncementAudio, registerAnnouncementAudio } from '../autoattendant/announcement-audio.js';
import { registerAnnouncements } from '../autoattendant/announcements.js';
import { DEFAULT_SCRYPT_COST } from '../autoattendant/password.js';
import { registerUsers } from '../autoattendant/users.js';
import { basicAuth } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { registerTaskQueues } from '../taskrouter/taskqueues.js';
import { registerWorkspaces } from '../taskrouter/workspaces.js';
import type { EnterpriseDeps, EnterpriseEnv } from './context.js';
import { registerEnterprises } from './enterprises.js';
import { errorBody } from './envelope.js';
import { EnterpriseError } from './errors.js';
import { EnterpriseScope, scopedEnterpriseStore } from './scope.js';
import { areaAuth } from './user-auth.js';

/** Options of the enterprise areas (see `createApp`'s `enterprise`). */
export interface EnterpriseAreaOptions {
  /** Where their records live. Default: a new memory store. */
  store?: EnterpriseStore;
  /** Sids of new records. Default random. */
  sids?: SidFactory;
  /** scrypt cost N of user passwords (a power of two). Default 16384. */
  scryptCost?: number;
  /** Largest announcement WAV, in bytes. Default 8 MiB. */
  maxAudioBytes?: number;
}

/** Paths (below `{base_url}`) of the areas. */
export const ENTERPRISE_AREAS = ['/enterprises', '/autoattendant', '/taskrouter'] as const;

/** What {@link mountEnterpriseAreas} needs from the app. */
export interface MountContext {
  /** Path of `{base_url}` where routes mount ('' for the root). */
  basePath: string;
  /** `{base_url}` as an absolute URL, '' when unknown. */
  baseUrl: string;
  accounts: AccountRepository;
  now: () => number;
  onError: (err: unknown) => void;
}

/** The error answer of the areas for anything a route throws. */
export function enterpriseErrorAnswer(err: unknown, c: Context, onError: (err: unknown) => void): Response {
  if (err instanceof EnterpriseError) return errorBody(c, err);
  if (err instanceof ApiError)
    return errorBody(c, new EnterpriseError(err.status, err.code, err.message, null));
  onError(err);
  return c.json({ errorCode: 'internal-error', message: 'internal server error', data: null }, 500);
}

/**
 * Which requests carry an announcement upload: exempt from an app's general body limit, they
 * have their own.
 */
export function isAnnouncementUpload(basePath: string): (method: string, path: string) => boolean {
  const prefix = `${basePath}/autoattendant/file/announcement/`;
  return (method, path) => method === 'POST' && path.startsWith(prefix);
}

/** Mounts the areas on `app` (after any general middleware); returns their store. */
export function mountEnterpriseAreas(
  app: Hono,
  ctx: MountContext,
  options: EnterpriseAreaOptions = {},
): EnterpriseStore {
  const store = options.store ?? createMemoryEnterpriseStore();
  const scope = new EnterpriseScope();
  const deps: EnterpriseDeps = {
    store: scopedEnterpriseStore(store, scope),
    baseUrl: ctx.baseUrl,
    sids: options.sids ?? randomSid,
    now: ctx.now,
    scryptCost: options.scryptCost ?? DEFAULT_SCRYPT_COST,
    maxAudioBytes: options.maxAudioBytes ?? 8 * 1024 * 1024,
  };
  /** `users`: Auto Attendant users may sign in here too (the account holder always may). */
  const area = (users: boolean, skip?: (method: string, path: string) => boolean) => {
    const sub = new Hono<EnterpriseEnv>();
    sub.use(
      '*',
      users
        ? areaAuth({ accounts: ctx.accounts, users: store.users, scope, skip })
        : basicAuth(ctx.accounts, skip),
    );
    sub.onError((err, c) => enterpriseErrorAnswer(err, c, ctx.onError));
    return sub;
  };
  const enterprises = area(false);
  registerEnterprises(enterprises, deps);
  const autoattendant = area(true, isAnnouncementAudio);
  registerUsers(autoattendant, deps);
  registerAnnouncements(autoattendant, deps);
  registerAnnouncementAudio(autoattendant, deps);
  const taskrouter = area(true);
  registerWorkspaces(taskrouter, deps);
  registerTaskQueues(taskrouter, deps);
  app.route(`${ctx.basePath}/enterprises`, enterprises);
  app.route(`${ctx.basePath}/autoattendant`, autoattendant);
  app.route(`${ctx.basePath}/taskrouter`, taskrouter);
  return store;
}

/** The 404 answer of the areas, for a path below one of them that names no route. */
export function enterpriseNotFound(c: Context, basePath: string): Response | undefined {
  const rest = c.req.path.slice(basePath.length);
  if (
    !c.req.path.startsWith(basePath) ||
    !ENTERPRISE_AREAS.some((a) => rest === a || rest.startsWith(`${a}/`))
  ) {
    return undefined;
  }
  return c.json(
    { errorCode: 'not-found', message: `no resource at ${c.req.method} ${c.req.path}`, data: null },
    404,
  );
}
