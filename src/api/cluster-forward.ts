/**
 * Forwarding of live-call writes between the nodes of a cluster. A node runs only the calls it
 * owns; a request that needs one of another node's live calls (modify a call, mute a conference
 * participant, `/sim` digits or speech) is re-issued over HTTP to the owner's advertised URL,
 * with the client's own headers (credentials included) and body, and the owner's answer is sent
 * back unchanged: status, headers and body are the owner's, as if the owner had been asked.
 *
 * Why HTTP rather than a request/reply over Redis: the owner runs the very same route
 * (authentication, validation, rendering, the Twilio dialect), so the answer cannot drift from a
 * local one, and nothing has to serialise requests into another format. The cost: nodes must
 * reach each other (`--advertise-url`). A hop header marks a forwarded request, signed with the
 * cluster's secret (HMAC-SHA256 of the node, time, method, path and credentials): a node never
 * forwards a validly signed request again (ownership seen differently by two nodes cannot loop)
 * and does not count it against the account's rate limit (the node that received it from the
 * client did). A header a client sends itself carries no valid signature: it is ignored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { Agent, request } from 'undici';
import type { AccountRepository } from '../store/ports.js';
import { basicAuth } from './http/auth.js';
import { ApiError, errorResponse } from './http/errors.js';

/** Header a forwarded request carries, naming the node that forwarded it. */
export const FORWARDED_BY_HEADER = 'X-Rcml-Forwarded-By';
/** Header of the signature of a forwarded request: `t=<ms since epoch>,v1=<hex HMAC-SHA256>`. */
export const FORWARD_SIGNATURE_HEADER = 'X-Rcml-Forward-Signature';
/** How far a signature's time may be from the receiving node's clock. */
export const FORWARD_SIGNATURE_WINDOW_MS = 60_000;
/** Context variable set, to the forwarding node's name, on a request whose signature holds. */
export const FORWARDED_BY = 'forwardedBy';

/** What a signature covers: who forwarded, when, and the request as the client sent it. */
function signed(secret: string, node: string, at: string, method: string, target: string, auth: string) {
  return createHmac('sha256', secret).update(`${node}\n${at}\n${method}\n${target}\n${auth}`).digest();
}

/** The signature header of a request `node` forwards; `target` is its path and query. */
export function forwardSignature(
  secret: string,
  node: string,
  method: string,
  target: string,
  authorization: string,
  now = Date.now(),
): string {
  const at = String(now);
  return `t=${at},v1=${signed(secret, node, at, method, target, authorization).toString('hex')}`;
}

/**
 * The node that forwarded `request` when its hop header carries a valid signature under
 * `secret`, made within {@link FORWARD_SIGNATURE_WINDOW_MS}; undefined for any other request
 * (a client's own hop header included).
 */
export function verifiedForwarder(
  secret: string,
  request: { method: string; url: string; header(name: string): string | undefined },
  now = Date.now(),
): string | undefined {
  const node = request.header(FORWARDED_BY_HEADER);
  const m = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/.exec(request.header(FORWARD_SIGNATURE_HEADER) ?? '');
  if (node === undefined || !m || !secret) return undefined;
  if (Math.abs(now - Number(m[1])) > FORWARD_SIGNATURE_WINDOW_MS) return undefined;
  const url = new URL(request.url);
  const expected = signed(
    secret,
    node,
    m[1],
    request.method,
    `${url.pathname}${url.search}`,
    request.header('Authorization') ?? '',
  );
  return timingSafeEqual(expected, Buffer.from(m[2], 'hex')) ? node : undefined;
}

/**
 * Marks the requests another node of the cluster forwarded (validly signed) with the
 * {@link FORWARDED_BY} variable; runs before the rate limit, which skips them.
 */
export function recogniseForwarded(secret: () => string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.header(FORWARDED_BY_HEADER) !== undefined) {
      const node = verifiedForwarder(secret(), {
        method: c.req.method,
        url: c.req.url,
        header: (n) => c.req.header(n),
      });
      if (node !== undefined) c.set(FORWARDED_BY, node);
    }
    return next();
  };
}

/** Who owns which live call, and where the owners listen: what a cluster node knows. */
export interface CallOwners {
  /** This node's name. */
  readonly nodeId: string;
  /** The node that owns a live call of the account, or undefined when it is not live. */
  ownerOf(accountSid: string, callSid: string): Promise<string | undefined>;
  /** The URL `node` advertises: '' while it starts, undefined once its heartbeat has expired. */
  urlOf(node: string): Promise<string | undefined>;
  /** Closes a dead node's calls (or waits for the node doing it); `alive` when it came back. */
  settleDeadOwner(node: string): Promise<'closed' | 'alive'>;
  /** The secret every node of the cluster shares, signing forwarded requests. */
  forwardSecret(): string;
}

/** Options of {@link forwardLiveCallWrites}. */
export interface ForwardOptions {
  owners: CallOwners;
  accounts: AccountRepository;
  /** Path of `{base_url}` ('' at the root). */
  basePath: string;
  /** Seconds a client is told to wait (`Retry-After`) when the owner cannot be reached. */
  retryAfterSeconds?: number;
}

const CALL_SID = '(CA[0-9A-Za-z]+)(?:\\.(?:json|xml))?';
const API = '(?:/platform)?/2012-04-24|/2010-04-01';
/** Paths of the writes that act on a live call: [pattern, group of the account, group of the call]. */
const LIVE_CALL_WRITES: ReadonlyArray<[RegExp, number | undefined, number]> = [
  [new RegExp(`^(?:${API})/Accounts/([^/]+)/Calls(?:\\.json)?/${CALL_SID}$`), 1, 2],
  [new RegExp(`^(?:${API})/Accounts/([^/]+)/Conferences/[^/]+/Participants/${CALL_SID}$`), 1, 2],
  [/^\/sim\/Calls\/([^/]+)\/(?:Digits|Speech)$/, undefined, 1],
];

/**
 * The account (when the path names one) and call of a POST that acts on a live call; `path` is
 * relative to `{base_url}`. Undefined for any other request.
 */
export function liveCallTarget(
  method: string,
  path: string,
): { accountSid?: string; callSid: string } | undefined {
  if (method !== 'POST') return undefined;
  for (const [pattern, account, call] of LIVE_CALL_WRITES) {
    const m = pattern.exec(path);
    if (m) return { accountSid: account === undefined ? undefined : m[account], callSid: m[call] };
  }
  return undefined;
}

/** Headers that belong to one connection, not to the request (RFC 9110, 7.6.1), and Host. */
const HOP_BY_HOP = new Set([
  // Set by the forwarding node only: a client's own are dropped.
  FORWARDED_BY_HEADER.toLowerCase(),
  FORWARD_SIGNATURE_HEADER.toLowerCase(),
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'host',
  'content-length',
  'expect',
]);

/**
 * Middleware forwarding live-call writes to the node that owns the call. Other requests, calls
 * this node owns or that are not live, and requests already forwarded go on to the routes. The
 * credentials are checked here first (a wrong token is answered 401 by this node, as the route
 * would). A call whose owner's heartbeat has expired is closed first (see
 * `CallOwners.settleDeadOwner`), then the route answers for the ended call; an owner that is
 * alive but cannot be reached answers 503 with `Retry-After`.
 */
export function forwardLiveCallWrites(options: ForwardOptions): MiddlewareHandler {
  const { owners, basePath } = options;
  const authenticate = basicAuth(options.accounts);
  // Connections to the other nodes are kept alive between forwarded requests.
  const agent = new Agent({ keepAliveTimeout: 4000, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const retryAfter = String(options.retryAfterSeconds ?? 10);

  /** Re-issues `raw` to the owner at `url` (its origin): same path, same query. */
  const forward = async (c: Context, url: string, pathAndQuery: string): Promise<Response> => {
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
    });
    headers[FORWARDED_BY_HEADER] = owners.nodeId;
    headers[FORWARD_SIGNATURE_HEADER] = forwardSignature(
      owners.forwardSecret(),
      owners.nodeId,
      'POST',
      pathAndQuery,
      c.req.header('Authorization') ?? '',
    );
    // Through the request's cache: the body-shape check may have read it already.
    const body = Buffer.from(await c.req.arrayBuffer());
    const target = `${url.replace(/\/+$/, '')}${pathAndQuery}`;
    const answer = await request(target, { method: 'POST', headers, body, dispatcher: agent });
    const bytes = await answer.body.arrayBuffer();
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
    }
    return new Response(answer.statusCode === 204 ? null : bytes, {
      status: answer.statusCode,
      headers: out,
    });
  };

  return async (c, next) => {
    // Only a validly signed hop header stops forwarding (see recogniseForwarded).
    if (c.req.method !== 'POST' || c.get(FORWARDED_BY) !== undefined) return next();
    if (basePath && !c.req.path.startsWith(`${basePath}/`)) return next();
    const path = c.req.path.slice(basePath.length);
    const target = liveCallTarget(c.req.method, path);
    if (!target) return next();
    return authenticate(c, async () => {
      const account = c.get('account').sid;
      // Another account's path: the route answers 403, here as anywhere.
      if (target.accountSid !== undefined && target.accountSid !== account) return next();
      const owner = await owners.ownerOf(account, target.callSid);
      if (owner === undefined || owner === owners.nodeId) return next();
      const url = await owners.urlOf(owner);
      if (url === undefined) {
        // Its heartbeat expired: its calls are closed before the route answers for the call.
        if ((await owners.settleDeadOwner(owner)) === 'closed') return next();
      }
      const reachable = url ?? (await owners.urlOf(owner));
      const unreachable = (why: string) =>
        errorResponse(
          c,
          new ApiError(503, 'unavailable', `call ${target.callSid} runs on node ${owner}, ${why}; try again`),
          { 'Retry-After': retryAfter },
        );
      let answer: Response;
      if (!reachable) answer = unreachable('which is starting');
      else {
        try {
          answer = await forward(c, reachable, `${c.req.path}${new URL(c.req.url).search}`);
        } catch (err) {
          answer = unreachable(
            `which cannot be reached (${err instanceof Error ? err.message : String(err)})`,
          );
        }
      }
      // The owner's answer as it is, not merged with headers set here.
      c.res = undefined;
      c.res = answer;
    });
  };
}
