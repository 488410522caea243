/**
 * Credentials in URLs (`http://user:password@host/app`): a request sends them as HTTP Basic
 * authentication, and every URL shown (notifications, traces, logs) hides the password.
 */

/** `scheme://user:password@` anywhere in a text; the password part is what is hidden. */
const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*):[^/?#@\s]*@/gi;

/** `text` with the password of every URL in it shown as `***` (`user:***@host`). */
export function redactUrl(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(USERINFO, '$1:***@');
}

/** A URL without its user information, and the `Authorization` header that carries it. */
export interface SplitUrl {
  url: string;
  /** `Basic ...` when the URL named a user (the password may be empty). */
  authorization?: string;
}

/** Takes `user:password@` out of a parsed URL (percent-decoded, as RFC 3986 encodes them). */
export function splitCredentials(url: URL): SplitUrl {
  if (!url.username && !url.password) return { url: url.toString() };
  const user = safeDecode(url.username);
  const password = safeDecode(url.password);
  const bare = new URL(url.toString());
  bare.username = '';
  bare.password = '';
  const token = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  return { url: bare.toString(), authorization: `Basic ${token}` };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
