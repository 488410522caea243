/** What the designer routes share: options with their defaults, the environment, lookups. */
import type { Context } from 'hono';
import type { FetchLike } from '../../designer/context.js';
import { localChanges, type SharedChanges } from '../../store/changes.js';
import type { DesignerStore } from '../../store/designer/ports.js';
import type { DesignerAppRecord } from '../../store/designer/types.js';
import type { Store } from '../../store/ports.js';
import type { AuthVariables } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import type { ImportGate } from './import-gate.js';
import type { DesignerRuntime } from './runtime.js';

/** Options of the Visual Designer service. */
export interface DesignerServiceOptions {
  /** Accounts (authentication) and `{api_root}` application records. */
  store: Store;
  /** Applications, parameters, media and logs. */
  designer: DesignerStore;
  /** Path of `{base_url}` (e.g. `/prefix`; default none): prefixes controller and media URLs. */
  basePath?: string;
  /** Largest accepted WAV upload in bytes (413 beyond). Default 5 MiB. */
  mediaMaxBytes?: number;
  /** Largest accepted archive upload in bytes (413 beyond). Default 20 MiB. */
  archiveMaxBytes?: number;
  /** Largest total of uncompressed bytes an imported archive may hold. Default 50 MiB. */
  archiveMaxUncompressedBytes?: number;
  /** Most entries an imported archive may hold. Default 1000. */
  archiveMaxEntries?: number;
  /** Imports one account may run at once (429 `too-many-imports` beyond). Default 2. */
  archiveMaxImportsPerAccount?: number;
  /** Imports the service runs at once, every account together (429 beyond). Default 4. */
  archiveMaxImports?: number;
  /** Largest JSON body (structure, parameters, settings) in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Bound of each application's log in bytes; the oldest lines go first. Default 256 KiB. */
  logMaxBytes?: number;
  /** Calls whose version is remembered (least recently used forgotten first). Default 10,000. */
  maxPinnedCalls?: number;
  /** Clock of records and log timestamps. Default `Date.now`. */
  now?: () => number;
  /** Sid of a new application (`AP` + 32 hex). Default random. */
  newSid?: () => string;
  /** `fetch` of external-service steps. Default undici's. */
  fetch?: FetchLike;
  /** Cap of external-service timeouts in ms. Default 5000. */
  esMaxTimeout?: number;
  /**
   * In a cluster: tells the other nodes of builds, settings and deletions made here, and drops
   * the compiled builds they change. Default: a single node's, no-op.
   */
  changes?: SharedChanges;
}

/** Options with their defaults filled in. */
export type DesignerConfig = Required<Omit<DesignerServiceOptions, 'fetch' | 'newSid'>> &
  Pick<DesignerServiceOptions, 'fetch' | 'newSid'>;

export const MIB = 1024 * 1024;

/** Fills in the defaults of {@link DesignerServiceOptions}. */
export function configOf(options: DesignerServiceOptions): DesignerConfig {
  return {
    ...options,
    basePath: (options.basePath ?? '').replace(/\/+$/, ''),
    mediaMaxBytes: options.mediaMaxBytes ?? 5 * MIB,
    archiveMaxBytes: options.archiveMaxBytes ?? 20 * MIB,
    archiveMaxUncompressedBytes: options.archiveMaxUncompressedBytes ?? 50 * MIB,
    archiveMaxEntries: options.archiveMaxEntries ?? 1000,
    archiveMaxImportsPerAccount: options.archiveMaxImportsPerAccount ?? 2,
    archiveMaxImports: options.archiveMaxImports ?? 4,
    maxBodyBytes: options.maxBodyBytes ?? MIB,
    logMaxBytes: options.logMaxBytes ?? 256 * 1024,
    maxPinnedCalls: options.maxPinnedCalls ?? 10_000,
    now: options.now ?? Date.now,
    esMaxTimeout: options.esMaxTimeout ?? 5000,
    changes: options.changes ?? localChanges,
  };
}

/** Hono environment of the designer routes. */
export type DesignerEnv = { Variables: AuthVariables };

/** What every route module receives. */
export interface DesignerDeps {
  config: DesignerConfig;
  runtime: DesignerRuntime;
  /** Archive imports in flight, capped per account and for the service. */
  imports: ImportGate;
}

/** Path of the service under `{base_url}`. */
export const SERVICE_PATH = '/visual-designer/services';

/** Path of an application's controller (its `rcml_url`). */
export const controllerPath = (config: DesignerConfig, sid: string) =>
  `${config.basePath}${SERVICE_PATH}/apps/${sid}/controller`;

/** Path under which an application's media files are served. */
export const mediaPath = (config: DesignerConfig, sid: string) =>
  `${config.basePath}${SERVICE_PATH}/projects/${sid}/wavs`;

/** The authenticated account's application named by the `sid` path parameter, or a 404. */
export async function appOf(c: Context<DesignerEnv>, deps: DesignerDeps): Promise<DesignerAppRecord> {
  const sid = c.req.param('sid') ?? '';
  const app = await deps.config.designer.apps.get(c.get('account').sid, sid);
  if (!app) throw notFound('Application', sid);
  return app;
}
