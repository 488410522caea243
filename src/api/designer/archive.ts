/** `GET /projects/{sid}/archive` and `POST /projects/import`. */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { exportArchive } from './archive-export.js';
import { importArchive } from './archive-import.js';
import { appOf, type DesignerDeps, type DesignerEnv } from './context.js';
import { ImportGate } from './import-gate.js';
import { parseInput, parseQuery } from './input.js';
import { createApplication, createdRep, nameField } from './projects.js';

/** Query of `POST /projects/import`. */
export const importQuery = z.object({ name: nameField.optional() });
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'application';

async function importOne(c: Context<DesignerEnv>, deps: DesignerDeps, query: z.infer<typeof importQuery>) {
  const type = c.req.header('Content-Type') ?? '';
  let zip: Buffer;
  if (type.includes('multipart/form-data')) {
    const file = (await c.req.formData().catch(() => undefined))?.get('file');
    if (!(file instanceof File))
      throw new ApiError(400, 'invalid-parameter', 'file: a zip file part is required', 'file');
    zip = Buffer.from(await file.arrayBuffer());
  } else zip = Buffer.from(await c.req.arrayBuffer());
  const archive = await importArchive(zip, {
    maxUncompressedBytes: deps.config.archiveMaxUncompressedBytes,
    maxEntries: deps.config.archiveMaxEntries,
  });
  const name = parseInput(nameField, query.name ?? archive.name);
  const header = (archive.state as { header?: { projectKind?: unknown } } | null)?.header;
  const stateKind = header?.projectKind;
  const kind = archive.kind ?? (stateKind === 'sms' || stateKind === 'ussd' ? stateKind : 'voice');
  const record = await createApplication(deps, {
    accountSid: c.get('account').sid,
    name,
    kind,
    state: archive.state,
    settings: archive.settings,
    parameters: archive.parameters,
    media: archive.media,
  });
  return c.json(createdRep(record));
}

export function registerArchive(app: Hono<DesignerEnv>, deps: DesignerDeps): void {
  const gate = new ImportGate({
    perAccount: deps.config.archiveMaxImportsPerAccount,
    perServer: deps.config.archiveMaxImports,
  });
  app.post('/projects/import', async (c) => {
    const query = parseQuery(c, importQuery);
    // Taken before the body is read: the upload's buffer counts as much as the inflated entries.
    const release = gate.enter(c.get('account').sid);
    try {
      return await importOne(c, deps, query);
    } finally {
      release();
    }
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
