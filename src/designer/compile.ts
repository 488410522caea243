/** compileProject: validate + upgrade once into an immutable app that renders targets cheaply. */
import { fetch as undiciFetch } from 'undici';
import { buildRcml } from '../rcml/build.js';
import type { RcmlDocument } from '../rcml/model.js';
import {
  type AppServices,
  type DesignerLogEntry,
  type FetchLike,
  type RenderContext,
  RenderError,
} from './context.js';
import { type LoadResult, loadProject, type ProjectProblem } from './load.js';
import { DEFAULT_RECORDINGS_BASE_URL } from './recordings.js';
import { handleAction, parseTarget, renderModule } from './render.js';
import type { Project, ProjectNode } from './schema.js';
import { ES_DEFAULT_TIMEOUT } from './steps/external-service.js';
import { importVariables } from './variables.js';

/** Options of {@link compileProject}. */
export interface CompileOptions {
  /** Project parameters (`parameters` file): they override every other variable source. */
  parameters?: Readonly<Record<string, string>> | ReadonlyArray<{ name: string; value?: string | null }>;
  /** The app's bootstrap JSON values, the lowest-priority variable source. */
  bootstrap?: Readonly<Record<string, string>>;
  /** `fetch` for the external-service step. Default: undici's `fetch`. */
  fetch?: FetchLike;
  /** Base URL that relative external-service URLs resolve against. */
  esBaseUrl?: string;
  /**
   * Configured external-service timeout in ms (default 5000): used when a step sets none, and
   * the cap of a step's own. The operator may raise it above 5000.
   */
  esMaxTimeout?: number;
  /** Bytes of an external service's answer read at most (default 1 MiB); past it the step fails. */
  esMaxBodyBytes?: number;
  /** Application sid, used in local media URLs. */
  applicationSid?: string;
  /** Base URL of local media. Default `/visual-designer/services/projects/{applicationSid}/wavs`. */
  mediaBaseUrl?: string;
  /** Base of recording URLs over HTTP. Default `http://127.0.0.1:8080/restcomm/recordings`. */
  recordingsBaseUrl?: string;
  /** The application's video option (default off): record `media` is written only when on. */
  videoSupport?: boolean;
  /** Receives "running target", `[LOG]`, `[ES]`, `[RCML]` and exception entries. */
  onLog?: (entry: DesignerLogEntry) => void;
}

/** A rendered response. `xml` is built on first access. */
export interface RenderResult {
  /** The target that was rendered (the start module when none was given). */
  target: string;
  document: RcmlDocument;
  readonly xml: string;
  /** Set when rendering failed and the document is the `<Hangup/>` fallback. */
  error?: { code: string; message: string };
}

/** A compiled, immutable Visual Designer app. */
export interface CompiledApp {
  readonly project: Project;
  /** Format version of the source JSON. */
  readonly fromVersion: string;
  /** What the loader upgraded. */
  readonly upgrades: readonly string[];
  /** What the loader set aside or decided by default, each with its JSON path. */
  readonly warnings: readonly ProjectProblem[];
  readonly startModule: string;
  /** Renders a target (`module[.step[.action]]`; empty -> start module) with request parameters. */
  render(target?: string, params?: Readonly<Record<string, string>>): Promise<RenderResult>;
}

/** Thrown by {@link compileProject} for an invalid project; `problems` lists every one. */
export class ProjectError extends Error {
  readonly code = 'designer.invalid-project';
  constructor(readonly problems: ProjectProblem[]) {
    super(`invalid project:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function parameterMap(parameters: CompileOptions['parameters']): Map<string, string> {
  if (!parameters) return new Map();
  if (Array.isArray(parameters)) {
    return new Map(
      (parameters as ReadonlyArray<{ name: string; value?: string | null }>).map((p) => [
        p.name,
        p.value ?? '',
      ]),
    );
  }
  return new Map(Object.entries(parameters as Record<string, string>));
}

function result(
  target: string,
  document: RcmlDocument,
  error?: RenderResult['error'],
  emptyBody = false,
): RenderResult {
  let xml: string | undefined = emptyBody ? '' : undefined;
  const out: RenderResult = {
    target,
    document,
    get xml() {
      xml ??= buildRcml(document);
      return xml;
    },
  };
  if (error) out.error = error;
  return out;
}

/** Compiles an already loaded project. */
export function compileLoaded(
  loaded: Extract<LoadResult, { ok: true }>,
  options: CompileOptions = {},
): CompiledApp {
  const project = deepFreeze(loaded.project);
  const modules = new Map<string, ProjectNode>(project.nodes.map((n) => [n.name, n]));
  const labels = new Map<string, string>();
  for (const n of project.nodes) if (n.label && !labels.has(n.label)) labels.set(n.label, n.name);
  const services: AppServices = {
    modules,
    labels,
    fetch: options.fetch ?? (undiciFetch as unknown as FetchLike),
    esBaseUrl: options.esBaseUrl,
    esMaxTimeout: options.esMaxTimeout ?? ES_DEFAULT_TIMEOUT,
    esMaxBodyBytes: options.esMaxBodyBytes,
    mediaBaseUrl:
      options.mediaBaseUrl ?? `/visual-designer/services/projects/${options.applicationSid ?? 'local'}/wavs`,
    recordingsBaseUrl: options.recordingsBaseUrl ?? DEFAULT_RECORDINGS_BASE_URL,
    videoSupport: options.videoSupport ?? false,
    onLog: options.onLog,
  };
  const bootstrap = new Map(Object.entries(options.bootstrap ?? {}));
  const parameters = parameterMap(options.parameters);
  const startModule = project.header.startNodeName;
  const onLog = options.onLog;

  async function render(target = '', params: Readonly<Record<string, string>> = {}): Promise<RenderResult> {
    const effective = target || startModule;
    const parsed = parseTarget(effective);
    const ctx: RenderContext = {
      app: services,
      vars: importVariables(bootstrap, params, parameters, target),
      params,
      verbs: [],
      module: parsed.module,
      hops: 0,
    };
    onLog?.({ kind: 'target', message: `Running target: ${effective}` });
    let out: RenderResult;
    try {
      const pending = parsed.action ? handleAction(ctx, parsed) : renderModule(ctx, parsed.module);
      if (pending) await pending;
      out = result(effective, { verbs: ctx.verbs }, undefined, ctx.emptyBody);
    } catch (error) {
      const code = error instanceof RenderError ? error.code : 'designer.render-failed';
      const message = error instanceof Error ? error.message : String(error);
      onLog?.({ kind: 'exception', message });
      out = result(effective, { verbs: [{ verb: 'Hangup' }] }, { code, message });
    }
    if (onLog) onLog({ kind: 'rcml', message: out.xml });
    return out;
  }

  return Object.freeze({
    project,
    fromVersion: loaded.fromVersion,
    upgrades: Object.freeze([...loaded.upgrades]),
    warnings: Object.freeze([...loaded.warnings]),
    startModule,
    render,
  });
}

/**
 * Loads (upgrading older formats), validates and compiles project JSON.
 * @throws {ProjectError} listing every problem with its JSON path.
 */
export function compileProject(json: unknown, options: CompileOptions = {}): CompiledApp {
  const loaded = loadProject(json);
  if (!loaded.ok) throw new ProjectError(loaded.problems);
  return compileLoaded(loaded, options);
}
