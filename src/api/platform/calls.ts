import type { Context, Hono } from 'hono';
import type { CallStatus } from '../../engine/records.js';
import { timeBounds } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import {
  type Format,
  jsonListText,
  listBody,
  type RenderedBody,
  renderOne,
  sendBody,
  splitFormat,
} from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { parseSortBy, readFields } from '../http/params.js';
import { declaredQuery, declareRoute } from '../openapi/declare.js';
import { parseCreateCall, parseModifyCall } from './call-params.js';
import {
  accountOf,
  controlOf,
  formatOfPath,
  type PlatformDeps,
  type PlatformEnv,
  withFormats,
} from './context.js';
import * as ops from './operations.js';
import { callJson, callRep } from './representations.js';

const CALL_LIST = { json: 'calls', xmlList: 'Calls', xmlItem: 'Call' };
const utf8 = new TextEncoder();

/** Calls: list, get, create, modify. */
export function registerCalls(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  const { store } = deps;

  const renderCallList = async (c: Context<PlatformEnv>, accountSid: string): Promise<RenderedBody> => {
    const query = declaredQuery(c, ops.listCalls);
    const paging = parsePaging(query);
    const status = query.Status;
    const bounds = timeBounds(query);
    const page = await store.calls.list({
      accountSid,
      to: query.To,
      from: query.From,
      status: status as CallStatus | undefined,
      parentCallSid: query.ParentCallSid,
      startedFrom: bounds.from,
      endedTo: bounds.to,
      sort: parseSortBy(query.SortBy, ops.CALL_SORT),
      // The envelope caps the total at Limit: no need to count further.
      countLimit: paging.limit,
      ...windowOf(paging),
    });
    const common = { path: c.req.path, query, paging, page, names: CALL_LIST, withLimit: true };
    if (formatOfPath(c.req.path) === 'json') {
      const body = jsonListText(pageDocument({ ...common, rep: callJson }));
      return { body, contentType: 'application/json' };
    }
    return listBody('xml', pageDocument({ ...common, rep: callRep }));
  };

  app.on('GET', withFormats('/Accounts/:accountSid/Calls'), declareRoute(ops.listCalls), async (c) => {
    const accountSid = accountOf(c);
    const version = await store.calls.version?.(accountSid);
    // The page depends on the path (format, links) and the query as sent, nothing else.
    const url = c.req.url;
    const search = url.indexOf('?');
    const key = search < 0 ? c.req.path : `${c.req.path}${url.slice(search)}`;
    const cached = version === undefined ? undefined : deps.listCache?.get(accountSid, key, version);
    if (cached) return sendBody(c, cached);
    const rendered = await renderCallList(c, accountSid);
    if (version === undefined || !deps.listCache) return sendBody(c, rendered);
    const kept = { body: utf8.encode(rendered.body as string), contentType: rendered.contentType };
    deps.listCache.set(accountSid, key, version, kept);
    return sendBody(c, kept);
  });

  app.on('POST', withFormats('/Accounts/:accountSid/Calls'), declareRoute(ops.createCall), async (c) => {
    const accountSid = accountOf(c);
    const params = parseCreateCall(await readFields(c));
    const call = await controlOf(deps).createCall(accountSid, params);
    return renderOne(c, formatOfPath(c.req.path), 'Call', callRep(call));
  });

  app.get('/Accounts/:accountSid/Calls/:file', declareRoute(ops.getCall), async (c) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    const call = await store.calls.get(accountSid, id);
    if (!call) throw notFound('Call', id);
    return renderOne(c, format, 'Call', callRep(call));
  });

  const modify = (fixed?: Format) => async (c: Context<PlatformEnv>) => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file') ?? '', fixed ?? 'xml');
    if (!(await store.calls.get(accountSid, id))) throw notFound('Call', id);
    const params = parseModifyCall(await readFields(c));
    const call = await controlOf(deps).modifyCall(accountSid, id, params);
    return renderOne(c, fixed ?? format, 'Call', callRep(call));
  };
  app.post('/Accounts/:accountSid/Calls/:file', declareRoute(ops.updateCall), modify());
  app.post('/Accounts/:accountSid/Calls.json/:file', declareRoute(ops.updateCallByJsonPath), modify('json'));
}
