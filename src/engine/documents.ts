import type { HttpMethod, Verb } from '../rcml/model.js';
import type { Call } from './call.js';
import type { FetchResult } from './fetcher.js';
import type { RequestKind } from './types.js';

/** A fetched, parsed document, or why it could not be had (with its notification code). */
export type LoadedDocument =
  | { ok: true; url: string; verbs: Verb[] }
  | { ok: false; code: string; log: 0 | 1; message: string; url: string };

const RCML_TYPES = /^(text\/xml|application\/xml|text\/html)\b/i;
const WAV_TYPES = /^audio\/(wav|wave|x-wav)\b/i;
const TEXT_TYPES = /^text\/plain\b/i;

/**
 * Fetches a document for a call and turns it into verbs by content type: RCML for XML/HTML,
 * a Play of the URL for WAV audio, a Say of the body for plain text (reference/rcml.md).
 * The document itself when an in-process handler answered synchronously, else a promise.
 */
export function loadDocument(
  call: Call,
  url: string,
  method: HttpMethod,
  kind: RequestKind,
  extra: Record<string, string> | undefined,
  /** Builds the request parameters: the call itself, or a script's context (screening set). */
  source: { params(extra?: Record<string, string>): Record<string, string> } = call,
): LoadedDocument | Promise<LoadedDocument> {
  if (!call.rt.isValidUrl(url)) {
    return { ok: false, code: '11100', log: 0, message: `invalid URL '${url}'`, url };
  }
  const res = call.rt.requestNow(call.record.sid, kind, url, method, source.params(extra));
  return res instanceof Promise ? res.then((r) => toDocument(call, url, r)) : toDocument(call, url, res);
}

function toDocument(call: Call, url: string, res: FetchResult): LoadedDocument {
  if (res.status === 0) {
    if (res.code === 'BODY_TOO_LARGE') {
      return { ok: false, code: '12100', log: 0, message: `document too large: ${res.error}`, url };
    }
    return { ok: false, code: '11205', log: 0, message: `HTTP I/O error: ${res.error}`, url };
  }
  if (res.status === 404)
    return { ok: false, code: '21402', log: 1, message: 'URL not found (HTTP 404)', url };
  // Only a 200 is a document (VoiceInterpreter.onDownloaderResponse); a 204 or 201 is not.
  if (res.status !== 200) {
    return { ok: false, code: '11206', log: 0, message: `HTTP protocol error: status ${res.status}`, url };
  }
  const rt = call.rt;
  const body = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
  const type = res.contentType.trim();
  if (RCML_TYPES.test(type) || (type === '' && body.trimStart().startsWith('<'))) {
    const parsed = rt.parse(body);
    if (!parsed.ok) {
      const first = parsed.diagnostics.find((d) => d.severity === 'error') ?? parsed.diagnostics[0];
      const where = first ? ` at ${first.line}:${first.column}: ${first.message}` : '';
      return { ok: false, code: '12100', log: 0, message: `document parse failure${where}`, url: res.url };
    }
    for (const d of parsed.diagnostics) {
      rt.notify(
        call.record.sid,
        d.code,
        d.severity === 'error' ? 0 : 1,
        `${d.line}:${d.column}: ${d.message}`,
        res.url,
      );
    }
    return { ok: true, url: res.url, verbs: parsed.document.verbs };
  }
  if (WAV_TYPES.test(type)) return { ok: true, url: res.url, verbs: [{ verb: 'Play', url: res.url }] };
  if (TEXT_TYPES.test(type)) return { ok: true, url: res.url, verbs: [{ verb: 'Say', text: body.trim() }] };
  return { ok: false, code: '12300', log: 0, message: `invalid content type '${type}'`, url: res.url };
}
