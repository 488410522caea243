/** The Visual Designer service: its routes (one hono app) and its in-process controller. */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { RcmlHandler } from '../../engine/types.js';
import { basicAuth } from '../http/auth.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { registerArchive } from './archive.js';
import { registerBuild } from './build.js';
import { registerConfig } from './config.js';
import {
  configOf,
  type DesignerDeps,
  type DesignerEnv,
  type DesignerServiceOptions,
  mediaPath,
} from './context.js';
import { controllerHandler, registerController } from './controller.js';
import { ImportGate } from './import-gate.js';
import { registerLogs } from './logs.js';
import { isPublicDesignerRoute, mediaHandler, registerMedia } from './media.js';
import { registerMediaUpload } from './media-upload.js';
import { registerParameters } from './parameters.js';
import { registerPlatformRoutes } from './platform-routes.js';
import { deleteApplication, registerProjects } from './projects.js';
import { DesignerRuntime } from './runtime.js';
import { registerSettings } from './settings.js';

/** A Visual Designer service. */
export interface DesignerService {
  /** Routes relative to `{base_url}/visual-designer/services`. */
  readonly app: Hono;
  /** The controller for the engine: register it under `{base_url}/visual-designer/services/apps/`. */
  readonly rcmlHandler: RcmlHandler;
  /** The media files for the engine: register it under `{base_url}/visual-designer/services/projects/`. */
  readonly mediaHandler: RcmlHandler;
  /** Follows a rename of the `{api_root}` application record (409 when the name is taken). */
  renamed(accountSid: string, sid: string, name: string): Promise<void>;
  /** Removes an application and everything of it; false when the account has none so named. */
  delete(accountSid: string, sid: string): Promise<boolean>;
  /** Closes the designer store. */
  close(): Promise<void>;
}

/** Which limit applies to a request body, by path. */
function limitOf(path: string, multipart: boolean, deps: DesignerDeps): { bytes: number; what: string } {
  if (/\/projects\/[^/]+\/wavs$/.test(path)) return { bytes: deps.config.mediaMaxBytes, what: 'media file' };
  if (/\/projects\/import$/.test(path)) return { bytes: deps.config.archiveMaxBytes, what: 'archive' };
  // The platform designer's import: a multipart POST /projects carrying the zip.
  if (/\/projects$/.test(path) && multipart) return { bytes: deps.config.archiveMaxBytes, what: 'archive' };
  return { bytes: deps.config.maxBodyBytes, what: 'request body' };
}

/** Answers an error as JSON; a structure's problems are listed with their paths. */
export function designerError(err: ApiError, c: Context): Response {
  const body: Record<string, unknown> = { status: err.status, code: err.code, message: err.message };
  if (err.parameter !== undefined) body.parameter = err.parameter;
  const problems = (err as { problems?: unknown }).problems;
  if (problems !== undefined) body.problems = problems;
  return c.json(body, err.status);
}

/** Builds the service over its stores. Every route needs HTTP Basic authentication. */
export function createDesignerService(options: DesignerServiceOptions): DesignerService {
  const config = configOf(options);
  const runtime = new DesignerRuntime({ ...config, mediaPath: (sid) => mediaPath(config, sid) });
  const imports = new ImportGate({
    perAccount: config.archiveMaxImportsPerAccount,
    perServer: config.archiveMaxImports,
  });
  const deps: DesignerDeps = { config, runtime, imports };
  const app = new Hono<DesignerEnv>();
  app.use('*', basicAuth(config.store.accounts, isPublicDesignerRoute));
  app.use('*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'DELETE') return next();
    const multipart = (c.req.header('Content-Type') ?? '').startsWith('multipart/form-data');
    const limit = limitOf(c.req.path, multipart, deps);
    return bodyLimit({
      maxSize: limit.bytes,
      onError: (ctx) =>
        errorResponse(ctx, new ApiError(413, 'body-too-large', `${limit.what} exceeds ${limit.bytes} bytes`)),
    })(c, next);
  });
  registerConfig(app, deps);
  registerArchive(app, deps);
  registerProjects(app, deps);
  registerBuild(app, deps);
  registerParameters(app, deps);
  registerPlatformRoutes(app, deps);
  registerSettings(app, deps);
  registerMediaUpload(app, deps);
  registerMedia(app, deps);
  registerLogs(app, deps);
  registerController(app, deps);
  return {
    app: app as unknown as Hono,
    rcmlHandler: controllerHandler(runtime),
    mediaHandler: mediaHandler(config.designer.media),
    async renamed(accountSid, sid, name) {
      const record = await config.designer.apps.get(accountSid, sid);
      if (!record || record.name === name) return;
      const outcome = await config.designer.apps.update({ ...record, name, dateUpdated: config.now() });
      if (outcome === 'duplicate-name') {
        throw new ApiError(
          409,
          'duplicate-name',
          `FriendlyName: an application named ${JSON.stringify(name)} exists`,
          'FriendlyName',
        );
      }
    },
    delete: (accountSid, sid) => deleteApplication(deps, accountSid, sid),
    close: () => {
      runtime.close();
      return config.designer.close();
    },
  };
}
