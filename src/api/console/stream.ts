/**
 * `GET {base}/console/api/events`: server-sent events of the session's account (its calls'
 * records, their engine events, queue events, notifications), starting with a `snapshot` of its
 * recent calls; and `GET {base}/console/api/calls/{CallSid}/timeline`, a remembered call's events.
 */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError } from '../http/errors.js';
import { type ConsoleDeps, consolePath, sessionOf } from './context.js';
import type { ConsoleFeed, ConsoleMessage } from './feed.js';

/** A comment line this often keeps proxies from closing an idle stream and checks the session. */
const HEARTBEAT_MS = 15_000;
/** Messages a slow client may have waiting; past it the stream ends (the page reconnects). */
const MAX_PENDING = 5_000;

function feedOf(deps: ConsoleDeps): ConsoleFeed {
  if (!deps.feed) throw new ApiError(501, 'no-call-engine', 'this server runs without a call engine');
  return deps.feed;
}

export function registerConsoleStream(app: Hono, deps: ConsoleDeps): void {
  const api = `${consolePath(deps)}/api`;

  app.get(`${api}/calls/:callSid/timeline`, (c) => {
    const { session } = sessionOf(c, deps);
    const callSid = c.req.param('callSid');
    const found = feedOf(deps).timeline(session.accountSid, callSid);
    if (!found) {
      throw new ApiError(404, 'not-found', `call ${callSid} is not among the recent calls of this server`);
    }
    return c.json(found);
  });

  app.get(`${api}/events`, (c) => {
    const { id, session } = sessionOf(c, deps);
    const feed = feedOf(deps);
    c.header('Cache-Control', 'no-store');
    return streamSSE(c, async (stream) => {
      let pending = 0;
      let chain: Promise<void> = Promise.resolve();
      let finish: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const send = (event: string, data: unknown) => {
        if (pending >= MAX_PENDING) return finish();
        pending++;
        chain = chain
          .then(() => stream.writeSSE({ event, data: JSON.stringify(data) }))
          .then(
            () => {
              pending--;
            },
            () => finish(),
          );
      };
      send('snapshot', { calls: feed.recentCalls(session.accountSid) });
      const off = feed.subscribe(session.accountSid, {
        message: (m: ConsoleMessage) => send(m.type, m),
        end: () => finish(),
      });
      // The stream does not extend the session: it ends once the session has (expiry, logout).
      const heartbeat = setInterval(() => {
        if (!deps.sessions.alive(id)) return finish();
        chain = chain.then(() => stream.write(': keep-alive\n\n').then(() => undefined), finish);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      stream.onAbort(() => finish());
      try {
        await done;
      } finally {
        clearInterval(heartbeat);
        off();
      }
    });
  });
}
