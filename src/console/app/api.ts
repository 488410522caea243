/**
 * The console's requests: its own session routes, and the REST API through
 * `api/rest/...` (the server adds the account's credentials; the page never holds them).
 * Every state-changing request carries the session's CSRF token.
 */

/** The logged-in account, as `api/session` answers. */
export interface Session {
  accountSid: string;
  csrfToken: string;
  expiresAt: string;
}

/** An error answer of the API: its status, numeric code and message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

let current: Session | undefined;
let onLoggedOut: () => void = () => {};

/** `{base_url}`'s path, from the page's own address (`{base}/console/`). */
export const basePath = location.pathname.replace(/\/console\/?.*$/, '');

/** Told when a request finds the session gone (expired, logged out elsewhere, token rotated). */
export function whenLoggedOut(hook: () => void): void {
  onLoggedOut = hook;
}

export function session(): Session {
  if (!current) throw new Error('not logged in');
  return current;
}

async function failure(res: Response): Promise<ApiFailure> {
  let body: { code?: number; message?: string } = {};
  try {
    body = await res.json();
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiFailure(res.status, body.code, body.message ?? `${res.status} ${res.statusText}`);
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== 'GET' && current) headers.set('X-CSRF-Token', current.csrfToken);
  const res = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (res.status === 401 && current) {
    current = undefined;
    onLoggedOut();
  }
  if (!res.ok) throw await failure(res);
  return res;
}

/** The session of the cookie the browser holds, if any. */
export async function restoreSession(): Promise<Session | undefined> {
  const res = await fetch('api/session', { credentials: 'same-origin' });
  current = res.ok ? ((await res.json()) as Session) : undefined;
  return current;
}

export async function login(accountSid: string, authToken: string): Promise<Session> {
  const res = await send('api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ accountSid, authToken }),
  });
  current = (await res.json()) as Session;
  return current;
}

export async function logout(): Promise<void> {
  try {
    await send('api/logout', { method: 'POST' });
  } finally {
    current = undefined;
  }
}

/** `{api_root}/Accounts/{AccountSid}` of the session, relative to `{base_url}`. */
export const accountPath = () => `/platform/2012-04-24/Accounts/${session().accountSid}`;

/** GET of a REST path (relative to `{base_url}`), as JSON. */
export async function getJson<T>(path: string): Promise<T> {
  return (await (await send(`api/rest${path}`)).json()) as T;
}

/** A form POST to a REST path; answers its JSON. */
export async function postForm<T>(path: string, fields: Record<string, string>): Promise<T> {
  const res = await send(`api/rest${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return (await res.json()) as T;
}

/** GET of one of the console's own routes (`api/...`), as JSON or text. */
export async function getConsole<T>(path: string): Promise<T> {
  return (await (await send(`api/${path}`)).json()) as T;
}

export async function getConsoleText(path: string): Promise<string> {
  return (await send(`api/${path}`)).text();
}
