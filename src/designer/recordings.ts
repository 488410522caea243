/** Recording URLs as the platform hands them to a project (Interpreter.convertRecordingFileResourceHttp). */

/** Default base of recordings served over HTTP: the platform's `/restcomm/recordings`. */
export const DEFAULT_RECORDINGS_BASE_URL = 'http://127.0.0.1:8080/restcomm/recordings';

/**
 * A `file:` recording URL becomes `<base>/<file name>`; an http(s) URL (or any other scheme)
 * is kept; a URL that is not absolute becomes ''.
 */
export function recordingHttpUrl(url: string, base: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (!scheme) return '';
  if (!scheme.startsWith('file')) return url;
  const slash = url.lastIndexOf('/');
  if (slash === -1) return url;
  return `${base.replace(/\/+$/, '')}/${url.slice(slash + 1)}`;
}
