/** Media: list, play (with ranges), delete; uploads are media-upload.ts. */

import type { Context, Hono } from 'hono';
import { MEDIA_CONTENT_TYPE, mediaKindOf } from '../../engine/media-file.js';
import type { HandlerRequest, HandlerResponse } from '../../engine/types.js';
import type { DesignerMediaRepository } from '../../store/designer/ports.js';
import { notFound } from '../http/errors.js';
import { queryOf } from '../http/params.js';
import { rangedBody } from '../http/range.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { checkFilename } from './filename.js';

const MEDIA_PATH = /\/visual-designer\/services\/projects\/([^/?#]+)\/(?:wavs|media)\/([^/?#]+)$/;

/** Routes answered without the account's credentials: media downloads and `/config`. */
export const isPublicDesignerRoute = (method: string, path: string): boolean =>
  (method === 'GET' || method === 'HEAD') &&
  (/\/projects\/[^/]+\/(?:wavs|media)\/[^/]+$/.test(path) ||
    /\/visual-designer\/services\/config$/.test(path));

/**
 * The media files as an in-process handler of the engine (registered under the service's
 * `projects/` URL), so a call plays them without an HTTP round trip to its own server.
 */
export function mediaHandler(
  repo: DesignerMediaRepository,
): (req: HandlerRequest) => Promise<HandlerResponse> {
  return async (req) => {
    let path = '';
    try {
      path = new URL(req.url).pathname;
    } catch {}
    const m = MEDIA_PATH.exec(path);
    const media = m ? await repo.get(decodeURIComponent(m[1]), decodeURIComponent(m[2])) : undefined;
    if (!media) return { status: 404, contentType: 'text/plain', body: `no media file at ${req.url}` };
    return {
      status: 200,
      contentType: MEDIA_CONTENT_TYPE[mediaKindOf(media.filename) ?? 'wav'],
      body: media.bytes,
    };
  };
}

export function registerMedia(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const repo = deps.config.designer.media;

  app.get('/projects/:sid/wavs', async (c) => {
    const record = await appOf(c, deps);
    return c.json((await repo.list(record.sid)).map((filename) => ({ filename })));
  });

  // Served without credentials, as the platform serves them to media servers: an application
  // sid is 128 random bits, like the recordings' `.wav` URLs (see isPublicDesignerRoute).
  const play = async (c: Context<DesignerEnv>) => {
    const filename = c.req.param('filename') ?? '';
    const media = await repo.get(c.req.param('sid') ?? '', filename);
    if (!media) throw notFound('Media file', filename);
    return rangedBody(
      media.bytes,
      c.req.header('Range'),
      MEDIA_CONTENT_TYPE[mediaKindOf(filename) ?? 'wav'],
      filename,
    );
  };
  app.get('/projects/:sid/media/:filename', play);
  app.get('/projects/:sid/wavs/:filename', play);

  app.delete('/projects/:sid/wavs', async (c) => {
    const record = await appOf(c, deps);
    const filename = checkFilename(queryOf(c).filename);
    if (!(await repo.delete(record.sid, filename))) throw notFound('Media file', filename);
    return c.json({ filename, deleted: true });
  });
}
