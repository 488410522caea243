/**
 * `POST /projects/{sid}/wavs`, in both forms clients use. The documented one: the file as the body, named by
 * `?filename=` (a free `media-<n>.wav`/`.mp4` is chosen when none is given), answered
 * `{result: [{size, name}]}`. The platform designer's: a multipart body whose every file part is
 * stored under its own name (`?filename=` renames a single one), answered `[{fieldName, name}]`
 * per part (`{fieldName, value}` for a plain field). Every file is checked before any is stored.
 */
import type { Context, Hono } from 'hono';
import type { MediaKind } from '../../engine/media-file.js';
import type { DesignerMedia } from '../../store/designer/types.js';
import { ApiError } from '../http/errors.js';
import { queryOf } from '../http/params.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { checkFilename } from './filename.js';
import { wavProblem } from './wav-check.js';

/** What the bytes look like, for naming a file that came without a name. */
const sniff = (bytes: Uint8Array): MediaKind =>
  String.fromCharCode(...bytes.subarray(4, 8)) === 'ftyp' ? 'mp4' : 'wav';

/** `media-1.wav`, `media-2.wav`, ...: the first name the application does not use. */
async function freeName(deps: DesignerDeps, appSid: string, kind: MediaKind): Promise<string> {
  const taken = new Set(await deps.config.designer.media.list(appSid));
  for (let n = 1; ; n++) {
    const name = `media-${n}.${kind}`;
    if (!taken.has(name)) return name;
  }
}

function checked(media: DesignerMedia): DesignerMedia {
  const problem = wavProblem(media.bytes, media.filename);
  if (problem) throw new ApiError(415, 'invalid-media', `${media.filename}: ${problem}`, 'file');
  return media;
}

async function formOf(c: Context<DesignerEnv>): Promise<FormData> {
  try {
    return await c.req.formData();
  } catch {
    throw new ApiError(400, 'malformed-body', 'multipart body could not be read');
  }
}

export function registerMediaUpload(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const repo = deps.config.designer.media;

  app.post('/projects/:sid/wavs', async (c) => {
    const record = await appOf(c, deps);
    const named = queryOf(c).filename;
    const type = c.req.header('Content-Type') ?? '';
    if (!type.includes('multipart/form-data')) {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const filename =
        named === undefined
          ? await freeName(deps, record.sid, sniff(bytes))
          : checkFilename(named, 'filename');
      await repo.put(record.sid, checked({ filename, bytes }));
      return c.json({ result: [{ size: bytes.byteLength, name: filename }] });
    }
    const parts: Array<{ field: string; value: string | File }> = [];
    (await formOf(c)).forEach((value, field) => {
      parts.push({ field, value });
    });
    const files = parts.filter((p) => p.value instanceof File);
    if (files.length === 0)
      throw new ApiError(400, 'invalid-parameter', 'file: a file part is required', 'file');
    if (named !== undefined && files.length > 1) {
      throw new ApiError(
        400,
        'invalid-parameter',
        'filename: names one file; this upload has several',
        'filename',
      );
    }
    const stored: DesignerMedia[] = [];
    for (const part of files) {
      const file = part.value as File;
      const filename = checkFilename(named ?? file.name, 'filename');
      stored.push(checked({ filename, bytes: new Uint8Array(await file.arrayBuffer()) }));
    }
    for (const media of stored) await repo.put(record.sid, media);
    let next = 0;
    return c.json(
      parts.map((p) =>
        p.value instanceof File
          ? { fieldName: p.field, name: stored[next++].filename }
          : { fieldName: p.field, value: p.value },
      ),
    );
  });
}
