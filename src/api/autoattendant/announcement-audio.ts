import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MEDIA_CONTENT_TYPE, mediaKindOf, mediaProblem } from '../../engine/media-file.js';
import { accountOf, type EnterpriseDeps, type EnterpriseEnv } from '../enterprise/context.js';
import { errorBody, ok } from '../enterprise/envelope.js';
import { specError } from '../enterprise/errors.js';
import { attachment } from '../http/attachment.js';
import { announcementOf, renderAnnouncement } from './announcements.js';
import { sanitizeFileName } from './wav-check.js';

/** Room for the multipart framing around the file. */
const MULTIPART_SLACK = 64 * 1024;

/** True for the audio download, which needs no authentication (like recordings' `.wav`). */
export const isAnnouncementAudio = (method: string, path: string) =>
  (method === 'GET' || method === 'HEAD') && /\/file\/announcement\/[^/]+\/[^/]+$/.test(path);

/**
 * `POST /file/announcement/{sid}`: multipart field `file`, a WAV (linear PCM, A-law or µ-law) or
 * an `.mp4` of at most `maxAudioBytes` (504 otherwise, with the reason);
 * `GET /file/announcement/{sid}/{name}` serves it as `audio/wav` (`video/mp4`).
 */
export function registerAnnouncementAudio(app: Hono<EnterpriseEnv>, deps: EnterpriseDeps): void {
  const limit = bodyLimit({
    maxSize: deps.maxAudioBytes + MULTIPART_SLACK,
    onError: (c) =>
      errorBody(
        c,
        specError('audioUpload', { sid: c.req.param('sid') }, `file exceeds ${deps.maxAudioBytes} bytes`),
      ),
  });

  app.post('/file/announcement/:sid', limit, async (c) => {
    const sid = c.req.param('sid');
    const current = await announcementOf(deps, accountOf(c), sid);
    const data = { sid };
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw specError('audioUpload', data, 'expected a multipart/form-data body');
    }
    const file = form.file;
    if (!(file instanceof File)) throw specError('audioUpload', data, "multipart field 'file' is required");
    if (file.size > deps.maxAudioBytes) {
      throw specError('audioUpload', data, `file exceeds ${deps.maxAudioBytes} bytes`);
    }
    const wav = new Uint8Array(await file.arrayBuffer());
    // As the platform's designer does, the extension names the kind (`.mp4`, else a WAV); the
    // content must then be that kind.
    const kind = mediaKindOf(file.name) ?? 'wav';
    const problem = mediaProblem(wav, kind);
    if (problem) throw specError('audioUpload', data, problem);
    const record = { ...current, fileName: sanitizeFileName(file.name, kind), dateUpdated: deps.now() };
    await deps.store.announcements.putAudio(record, wav);
    return ok(c, renderAnnouncement(record));
  });

  app.get('/file/announcement/:sid/:name', async (c) => {
    const found = await deps.store.announcements.audio(c.req.param('sid'));
    if (!found || found.record.fileName !== c.req.param('name')) {
      throw specError('announcementNotFound', { sid: c.req.param('sid') });
    }
    return c.body(found.wav.slice().buffer, 200, {
      'Content-Type': MEDIA_CONTENT_TYPE[mediaKindOf(found.record.fileName) ?? 'wav'],
      'Content-Length': String(found.wav.byteLength),
      'Content-Disposition': attachment(found.record.fileName),
    });
  });
}
