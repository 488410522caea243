/** Media: WAV upload (raw body or multipart `file`), list, play (with ranges), delete. */

import type { Context, Hono } from 'hono';
import { MEDIA_CONTENT_TYPE, mediaKindOf } from '../../engine/media-file.js';
import { ApiError, notFound } from '../http/errors.js';
import { queryOf } from '../http/params.js';
import { rangedBody } from '../http/range.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { checkFilename } from './filename.js';
import { wavProblem } from './wav-check.js';

async function uploaded(c: Context<DesignerEnv>): Promise<{ filename: string; bytes: Uint8Array }> {
  const type = c.req.header('Content-Type') ?? '';
  if (type.includes('multipart/form-data')) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw new ApiError(400, 'malformed-body', 'multipart body could not be read');
    }
    const file = form.get('file');
    if (!(file instanceof File))
      throw new ApiError(400, 'invalid-parameter', 'file: a file part is required', 'file');
    const filename = checkFilename(queryOf(c).filename ?? file.name, 'filename');
    return { filename, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  const filename = checkFilename(queryOf(c).filename, 'filename');
  return { filename, bytes: new Uint8Array(await c.req.arrayBuffer()) };
}

export function registerMedia(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const repo = deps.config.designer.media;

  app.post('/projects/:sid/wavs', async (c) => {
    const record = await appOf(c, deps);
    const { filename, bytes } = await uploaded(c);
    const problem = wavProblem(bytes, filename);
    if (problem) throw new ApiError(415, 'invalid-media', problem, 'file');
    await repo.put(record.sid, { filename, bytes });
    return c.json({ result: [{ size: bytes.byteLength }] });
  });

  app.get('/projects/:sid/wavs', async (c) => {
    const record = await appOf(c, deps);
    return c.json((await repo.list(record.sid)).map((filename) => ({ filename })));
  });

  const play = async (c: Context<DesignerEnv>) => {
    const record = await appOf(c, deps);
    const filename = c.req.param('filename') ?? '';
    const media = await repo.get(record.sid, filename);
    if (!media) throw notFound('Media file', filename);
    return rangedBody(media.bytes, c.req.header('Range'), MEDIA_CONTENT_TYPE[mediaKindOf(filename) ?? 'wav']);
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
