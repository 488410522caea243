/** State of one render: the request's variables, the verbs produced and the app's services. */
import type { Verb } from '../rcml/model.js';
import { controllerLink } from './links.js';
import type { ProjectNode } from './schema.js';
import type { Variables } from './variables.js';

/** What the compiled app reports while rendering (the REST layer writes these to the app log). */
export interface DesignerLogEntry {
  kind: 'target' | 'log' | 'es-request' | 'es-response' | 'rcml' | 'exception';
  message: string;
}

/** Minimal response shape the external-service step needs from `fetch`. */
export interface FetchResponseLike {
  status: number;
  text(): Promise<string>;
  /** The body as a stream, read chunk by chunk up to the byte cap when present. */
  body?: ReadableStream<Uint8Array> | null;
}

/** Injectable `fetch` (undici's by default); tests pass a fake to avoid the network. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<FetchResponseLike>;

/** Services and settings shared by every render of one compiled app. */
export interface AppServices {
  modules: ReadonlyMap<string, ProjectNode>;
  /** Module name by label, for response-based routing. */
  labels: ReadonlyMap<string, string>;
  fetch: FetchLike;
  esBaseUrl: string | undefined;
  esMaxTimeout: number;
  /** Bytes of an external service's answer read at most; a longer one fails the request. */
  esMaxBodyBytes?: number;
  mediaBaseUrl: string;
  /** Base of recording URLs served over HTTP (a `file:` RecordingUrl is turned into one). */
  recordingsBaseUrl: string;
  /** The application's video option: record `media` is written only when it is on. */
  videoSupport: boolean;
  onLog: ((entry: DesignerLogEntry) => void) | undefined;
}

/** A failure while rendering: the response becomes `<Hangup/>`. */
export class RenderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Mutable state of one request. */
export interface RenderContext {
  app: AppServices;
  vars: Variables;
  params: Readonly<Record<string, string>>;
  verbs: Verb[];
  /** Module being rendered; entering another one clears `module_*` variables. */
  module: string;
  /** Modules entered in this request, to stop continueTo/routing loops. */
  hops: number;
  /** Set when the request renders nothing at all: the answer is an empty body. */
  emptyBody?: boolean;
}

/** What a step asks the module renderer to do next. */
export type StepOutcome = undefined | { goto: string };

/** Link to a target of the controller carrying the sticky/module variables. */
export function link(ctx: RenderContext, target: string): string {
  return controllerLink(target, ctx.vars);
}

/** Emits a log entry when a listener is set. */
export function log(ctx: RenderContext, kind: DesignerLogEntry['kind'], message: string): void {
  ctx.app.onLog?.({ kind, message });
}
