/** An application as a zip (archiver): `info`, `state`, `settings`, `parameters`, `cc` when set, `wavs/*`. */
import type { DesignerStore } from '../../store/designer/ports.js';
import type { DesignerAppRecord } from '../../store/designer/types.js';

/** Version of the archive layout, written in `info`. */
export const ARCHIVE_FORMAT = 1;

/** Zips the saved structure, settings, parameters and media of an application. */
export async function exportArchive(designer: DesignerStore, record: DesignerAppRecord): Promise<Buffer> {
  // Loaded on first use: a server that never exports does not pay for it at start-up.
  const { default: archiver } = await import('archiver');
  const zip = archiver('zip', { zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.on('warning', reject);
  });
  const json = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2));
  zip.append(json({ format: ARCHIVE_FORMAT, name: record.name, kind: record.kind }), { name: 'info' });
  zip.append(json(record.state), { name: 'state' });
  zip.append(json(record.settings), { name: 'settings' });
  zip.append(json({ parameters: await designer.parameters.list(record.sid) }), { name: 'parameters' });
  // The platform's web trigger settings, under the platform's own name for them.
  if (record.webTrigger !== undefined) zip.append(json(record.webTrigger), { name: 'cc' });
  for (const filename of await designer.media.list(record.sid)) {
    const media = await designer.media.get(record.sid, filename);
    if (media) zip.append(Buffer.from(media.bytes), { name: `wavs/${filename}` });
  }
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}
