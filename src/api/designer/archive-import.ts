/**
 * Reads an exported application back, refusing hostile archives: entry names must be plain
 * relative paths (no `..`, no absolute or drive paths, no backslashes), the entry count and the
 * sum of every entry's declared uncompressed size are bounded from the central directory before
 * anything is inflated, and while inflating yauzl checks that no entry yields more than it
 * declared and the running total is held to the same cap.
 */
import type yauzl from 'yauzl';
import { z } from 'zod';
import type {
  DesignerKind,
  DesignerMedia,
  DesignerParameter,
  DesignerSettings,
} from '../../store/designer/types.js';
import { ApiError } from '../http/errors.js';
import { checkFilename, hasControlCharacters } from './filename.js';
import { wavProblem } from './wav-check.js';

/** Limits of an import. */
export interface ArchiveLimits {
  maxUncompressedBytes: number;
  maxEntries: number;
}

/** What an archive holds. */
export interface ImportedArchive {
  name?: string;
  kind?: DesignerKind;
  state: unknown;
  settings?: DesignerSettings;
  parameters: DesignerParameter[];
  media: DesignerMedia[];
}

const unsafe = (message: string) => new ApiError(400, 'unsafe-archive', message, 'archive');
const invalid = (message: string) => new ApiError(400, 'invalid-archive', message, 'archive');

/** Why an entry name is unsafe, or undefined. */
export function unsafeEntryName(name: string): string | undefined {
  if (name.includes('\\')) return 'a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').some((part) => part === '..')) return 'a ".." segment';
  if (hasControlCharacters(name)) return 'control characters';
  return undefined;
}

const infoSchema = z.object({
  name: z.string().optional(),
  kind: z.enum(['voice', 'sms', 'ussd']).optional(),
});
const settingsSchema = z.object({
  logging: z.boolean().default(false),
  loggingRCML: z.boolean().default(false),
  loggingES: z.boolean().default(false),
});
const parametersSchema = z.object({
  parameters: z.array(
    z.object({
      name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
      description: z.string().default(''),
      value: z
        .string()
        .nullish()
        .transform((v) => v ?? undefined),
    }),
  ),
});

/** Opens a zip held in memory; entries are read one at a time, the file closed by the caller. */
async function openZip(zip: Buffer): Promise<yauzl.ZipFile> {
  // Loaded on first use: a server that never imports does not pay for it at start-up.
  const { fromBuffer } = await import('yauzl');
  return new Promise((resolve, reject) =>
    fromBuffer(
      zip,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true },
      (err, file) =>
        err || !file
          ? reject(invalid(`not a readable zip archive: ${err?.message ?? 'unknown error'}`))
          : resolve(file),
    ),
  );
}

const zipError = (e: Error) =>
  e instanceof ApiError
    ? e
    : /invalid|relative|absolute|backslash/i.test(e.message)
      ? unsafe(e.message)
      : invalid(e.message);

/**
 * First pass, over the central directory only (nothing is inflated): every entry's name is
 * checked, and the entry count and the sum of the declared uncompressed sizes are bounded.
 */
function listEntries(file: yauzl.ZipFile, limits: ArchiveLimits): Promise<yauzl.Entry[]> {
  if (file.entryCount > limits.maxEntries) {
    return Promise.reject(
      unsafe(`the archive holds ${file.entryCount} entries; at most ${limits.maxEntries} are accepted`),
    );
  }
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    const onError = (e: Error) => {
      file.off('entry', onEntry);
      reject(zipError(e));
    };
    const onEntry = (entry: yauzl.Entry) => {
      const problem = unsafeEntryName(entry.fileName);
      if (problem) return onError(unsafe(`entry ${JSON.stringify(entry.fileName)} has ${problem}`));
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes) {
        return onError(
          unsafe(`the archive declares more than ${limits.maxUncompressedBytes} uncompressed bytes`),
        );
      }
      entries.push(entry);
      file.readEntry();
    };
    file.on('error', onError);
    file.on('entry', onEntry);
    file.once('end', () => {
      file.off('error', onError);
      file.off('entry', onEntry);
      resolve(entries);
    });
    file.readEntry();
  });
}

/**
 * Second pass: inflates the listed entries one by one. yauzl fails an entry that yields more
 * than it declared, and the running total is checked again against the cap as a second guard.
 */
async function inflateEntries(
  file: yauzl.ZipFile,
  entries: yauzl.Entry[],
  limits: ArchiveLimits,
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  let inflated = 0;
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      file.openReadStream(entry, (e, stream) => {
        if (e || !stream) return reject(invalid(`entry ${entry.fileName}: ${e?.message ?? 'unreadable'}`));
        const parts: Buffer[] = [];
        stream.on('data', (d: Buffer) => {
          inflated += d.byteLength;
          if (inflated > limits.maxUncompressedBytes) {
            stream.destroy();
            return reject(unsafe(`the archive inflates to more than ${limits.maxUncompressedBytes} bytes`));
          }
          parts.push(d);
        });
        // yauzl errors when an entry inflates past the size it declares.
        stream.on('error', (se: Error) => reject(unsafe(`entry ${entry.fileName}: ${se.message}`)));
        stream.on('end', () => resolve(Buffer.concat(parts)));
      });
    });
    out.set(entry.fileName, bytes);
  }
  return out;
}

async function readEntries(zip: Buffer, limits: ArchiveLimits): Promise<Map<string, Buffer>> {
  const file = await openZip(zip);
  // Errors of the second pass reach each entry's callback; none may go unheard on the file.
  file.on('error', () => {});
  try {
    return await inflateEntries(file, await listEntries(file, limits), limits);
  } finally {
    file.close();
  }
}

function json<T extends z.ZodType>(
  entries: Map<string, Buffer>,
  name: string,
  schema: T,
): z.infer<T> | undefined {
  const bytes = entries.get(name);
  if (!bytes) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw invalid(`${name}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${name}: ${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads and checks an archive (400 `unsafe-archive` / `invalid-archive` when refused). */
export async function importArchive(zip: Buffer, limits: ArchiveLimits): Promise<ImportedArchive> {
  const entries = await readEntries(zip, limits);
  const state = json(entries, 'state', z.unknown());
  if (state === undefined) throw invalid('the archive has no "state" entry');
  const media: DesignerMedia[] = [];
  for (const [name, bytes] of entries) {
    if (!name.startsWith('wavs/')) continue;
    const filename = checkFilename(name.slice('wavs/'.length), 'archive');
    const problem = wavProblem(bytes);
    if (problem) throw invalid(`${name}: ${problem}`);
    media.push({ filename, bytes: new Uint8Array(bytes) });
  }
  const info = json(entries, 'info', infoSchema);
  return {
    name: info?.name,
    kind: info?.kind,
    state,
    settings: json(entries, 'settings', settingsSchema),
    parameters: json(entries, 'parameters', parametersSchema)?.parameters ?? [],
    media,
  };
}
