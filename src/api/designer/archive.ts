/**
 * `GET /projects/{sid}/archive`, `POST /projects/import`, and the platform designer's own import
 * request (a multipart `POST /projects` carrying the zip), answered in its `[{field, name, id}]`.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { DesignerAppRecord } from '../../store/designer/types.js';
import { ApiError } from '../http/errors.js';
import { exportArchive } from './archive-export.js';
import { importArchive } from './archive-import.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { parseInput, parseQuery } from './input.js';
import { createApplication, createdRep, nameField, uniqueName } from './projects.js';

/** Query of `POST /projects/import`. */
export const importQuery = z.object({ name: nameField.optional() });
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'application';

/** One part of a multipart upload: a file, or a plain field. */
type Part = { field: string; file: File } | { field: string; value: string };

async function partsOf(c: Context<DesignerEnv>): Promise<Part[]> {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new ApiError(400, 'malformed-body', 'multipart body could not be read');
  }
  const parts: Part[] = [];
  form.forEach((value, field) => {
    parts.push(typeof value === 'string' ? { field, value } : { field, file: value });
  });
  return parts;
}

/** The base name of an uploaded file (`dir/Front desk.zip` -> `Front desk`), as the platform names imports. */
export function baseName(filename: string): string {
  const last = filename.split(/[/\\]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  return (dot > 0 ? last.slice(0, dot) : last).trim();
}

/** Where an imported application's name comes from, most specific first. */
interface NameSources {
  /** Given by the client: kept as is (409 when taken). */
  given?: string;
  /** The uploaded file's base name: made unique. */
  fromFile?: string;
}

const nameInput = z.object({ name: nameField });

/** Reads, checks and creates one application from a zip. */
async function importZip(
  deps: DesignerDeps,
  accountSid: string,
  zip: Buffer,
  names: NameSources,
): Promise<DesignerAppRecord> {
  const archive = await importArchive(zip, {
    maxUncompressedBytes: deps.config.archiveMaxUncompressedBytes,
    maxEntries: deps.config.archiveMaxEntries,
  });
  let name = names.given ?? archive.name;
  if (name === undefined && names.fromFile) name = await uniqueName(deps, accountSid, names.fromFile);
  if (name === undefined) {
    throw new ApiError(
      400,
      'invalid-parameter',
      'name: is required: the archive has no info entry naming it; give ?name= or upload the zip as a multipart file (its base name is used)',
      'name',
    );
  }
  name = parseInput(nameInput, { name }).name;
  const header = (archive.state as { header?: { projectKind?: unknown } } | null)?.header;
  const stateKind = header?.projectKind;
  const kind = archive.kind ?? (stateKind === 'sms' || stateKind === 'ussd' ? stateKind : 'voice');
  return createApplication(deps, {
    accountSid,
    name,
    kind,
    state: archive.state,
    settings: archive.settings,
    parameters: archive.parameters,
    media: archive.media,
    webTrigger: archive.webTrigger,
  });
}

const noFilePart = () =>
  new ApiError(400, 'invalid-parameter', 'file: a multipart part holding the zip file is required', 'file');

/** Holds one of the service's import slots while `work` runs. */
async function gated<T>(c: Context<DesignerEnv>, deps: DesignerDeps, work: () => Promise<T>): Promise<T> {
  // Taken before the body is read: the upload's buffer counts as much as the inflated entries.
  const release = deps.imports.enter(c.get('account').sid);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The platform designer's import: every file part of a multipart `POST /projects` becomes an
 * application named after the file's base name (made unique; `?name=` names the first instead);
 * the answer lists each part as `{field, name, id}` (`{field, value}` for a plain field).
 */
function importPlatformForm(c: Context<DesignerEnv>, deps: DesignerDeps, given: string | undefined) {
  return gated(c, deps, async () => {
    const parts = await partsOf(c);
    if (!parts.some((p) => 'file' in p)) throw noFilePart();
    const answer: Record<string, string>[] = [];
    let files = 0;
    for (const part of parts) {
      if (!('file' in part)) {
        answer.push({ field: part.field, value: part.value });
        continue;
      }
      files++;
      const zip = Buffer.from(await part.file.arrayBuffer());
      const record = await importZip(deps, c.get('account').sid, zip, {
        given: files === 1 ? given : undefined,
        fromFile: baseName(part.file.name) || 'project',
      });
      answer.push({ field: part.field, name: record.name, id: record.sid });
    }
    return c.json(answer);
  });
}

/** Registered before `registerProjects`: a multipart `POST /projects` is an import, anything else a create. */
export function registerArchive(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  app.post('/projects', async (c, next) => {
    if (!(c.req.header('Content-Type') ?? '').startsWith('multipart/form-data')) return next();
    return importPlatformForm(c, deps, parseQuery(c, importQuery).name);
  });

  app.post('/projects/import', async (c) => {
    const query = parseQuery(c, importQuery);
    return gated(c, deps, async () => {
      const accountSid = c.get('account').sid;
      const type = c.req.header('Content-Type') ?? '';
      let record: DesignerAppRecord;
      if (type.includes('multipart/form-data')) {
        const part = (await partsOf(c)).find((p) => p.field === 'file' && 'file' in p);
        if (!part || !('file' in part)) throw noFilePart();
        const zip = Buffer.from(await part.file.arrayBuffer());
        record = await importZip(deps, accountSid, zip, {
          given: query.name,
          fromFile: baseName(part.file.name) || undefined,
        });
      } else {
        record = await importZip(deps, accountSid, Buffer.from(await c.req.arrayBuffer()), {
          given: query.name,
        });
      }
      return c.json(createdRep(record));
    });
  });

  app.get('/projects/:sid/archive', async (c) => {
    const record = await appOf(c, deps);
    const zip = await exportArchive(deps.config.designer, record);
    return c.body(new Uint8Array(zip), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${safeName(record.name)}.zip"`,
    });
  });
}
