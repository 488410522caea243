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
import { type WebTrigger, webTriggerBody } from './platform-routes.js';
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
  /** The platform's web trigger settings (`cc`), when the archive has them. */
  webTrigger?: WebTrigger;
}

const unsafe = (message: string) => new ApiError(400, 'unsafe-archive', message, 'archive');
const invalid = (message: string) => new ApiError(400, 'invalid-archive', message, 'archive');

/** Why an entry name is unsafe, or undefined. One leading `/` (the platform's own exports) is the root. */
export function unsafeEntryName(name: string): string | undefined {
  if (name.includes('\\')) return 'a backslash';
  const inside = rootRelative(name);
  if (inside.startsWith('/') || /^[A-Za-z]:/.test(inside)) return 'an absolute path';
  if (inside.split('/').some((part) => part === '..')) return 'a ".." segment';
  if (hasControlCharacters(name)) return 'control characters';
  return undefined;
}

/**
 * The entry's path inside the archive: the platform's designer writes every entry with a leading
 * slash (`/state`, `/wavs/a.wav`), which names the archive's root; a second slash is refused.
 */
export const rootRelative = (name: string): string => (name.startsWith('/') ? name.slice(1) : name);

/** Unix file type bits of an entry's external attributes, when a Unix zipper wrote it. */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const isSymlink = (entry: yauzl.Entry) =>
  entry.versionMadeBy >>> 8 === 3 && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;

const infoSchema = z.object({
  name: z.string().optional(),
  kind: z.enum(['voice', 'sms', 'ussd']).optional(),
});
// The platform's own settings and parameters may carry nulls where a value was never set.
const flag = z
  .boolean()
  .nullish()
  .transform((v) => v ?? false);
const settingsSchema = z.object({ logging: flag, loggingRCML: flag, loggingES: flag });
const parametersSchema = z.object({
  parameters: z.array(
    z.object({
      name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/),
      description: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      value: z
        .string()
        .nullish()
        .transform((v) => v ?? undefined),
    }),
  ),
});

/** A zip held in memory, its entries read one at a time, and how its entry names are decoded. */
interface OpenZip {
  file: yauzl.ZipFile;
  decodeName: (entry: yauzl.Entry) => string;
}

/** Opens a zip held in memory; the file is closed by the caller. */
async function openZip(zip: Buffer): Promise<OpenZip> {
  // Loaded on first use: a server that never imports does not pay for it at start-up.
  const { fromBuffer, getFileNameLowLevel } = await import('yauzl');
  // As written (UTF-8 when flagged or given as a Unicode path field, else CP437), backslashes kept.
  const decodeName = (entry: yauzl.Entry): string =>
    getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    fromBuffer(
      zip,
      // Names are decoded and checked here (see entryName): yauzl's own check refuses the
      // leading slash of every entry the platform's designer writes.
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: false },
      (err, file) =>
        err || !file
          ? reject(invalid(`not a readable zip archive: ${err?.message ?? 'unknown error'}`))
          : resolve(file),
    ),
  );
  return { file, decodeName };
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
function listEntries({ file, decodeName }: OpenZip, limits: ArchiveLimits): Promise<yauzl.Entry[]> {
  if (file.entryCount > limits.maxEntries) {
    return Promise.reject(
      unsafe(`the archive holds ${file.entryCount} entries; at most ${limits.maxEntries} are accepted`),
    );
  }
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    const seen = new Set<string>();
    let declared = 0;
    const onError = (e: Error) => {
      file.off('entry', onEntry);
      reject(zipError(e));
    };
    const onEntry = (entry: yauzl.Entry) => {
      entry.fileName = decodeName(entry);
      const quoted = JSON.stringify(entry.fileName);
      if (isSymlink(entry)) return onError(unsafe(`entry ${quoted} is a symbolic link`));
      const problem = unsafeEntryName(entry.fileName);
      if (problem) return onError(unsafe(`entry ${quoted} has ${problem}`));
      const path = rootRelative(entry.fileName);
      if (seen.has(path)) return onError(invalid(`entry ${JSON.stringify(path)} appears twice`));
      seen.add(path);
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
    out.set(rootRelative(entry.fileName), bytes);
  }
  return out;
}

async function readEntries(zip: Buffer, limits: ArchiveLimits): Promise<Map<string, Buffer>> {
  const zipFile = await openZip(zip);
  const { file } = zipFile;
  // Errors of the second pass reach each entry's callback; none may go unheard on the file.
  file.on('error', () => {});
  try {
    return await inflateEntries(file, await listEntries(zipFile, limits), limits);
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
    const problem = wavProblem(bytes, filename);
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
    webTrigger: json(entries, 'cc', webTriggerBody) ?? undefined,
  };
}
