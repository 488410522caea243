import type { Context, Hono } from 'hono';
import type { GatherRecord } from '../../engine/records.js';
import { parseDateFilter } from '../http/dates.js';
import { notFound } from '../http/errors.js';
import { renderList, renderOne, requireJson, splitFormat } from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { declaredQuery, declareRoute } from '../openapi/declare.js';
import { accountOf, type PlatformDeps, type PlatformEnv } from './context.js';
import * as ops from './operations.js';
import { gatherRep } from './representations.js';

const GATHER_LIST = { json: 'gathers', xmlList: 'Gathers', xmlItem: 'Gather' };
const KINDS: ReadonlyArray<
  [path: string, kind: GatherRecord['kind'], name: string, declared: typeof ops.dtmfGathers]
> = [
  ['DTMF', 'dtmf', 'Gather DTMF', ops.dtmfGathers],
  ['Speech', 'speech', 'Gather Speech', ops.speechGathers],
];

/** Gather DTMF and Speech records: list and get, JSON only. */
export function registerGathers(app: Hono<PlatformEnv>, deps: PlatformDeps): void {
  for (const [path, kind, name, declared] of KINDS) {
    const base = `/Accounts/:accountSid/Gathers/${path}`;
    const list = async (c: Context<PlatformEnv>) => {
      const accountSid = accountOf(c);
      requireJson(c.req.path.endsWith('.xml') ? 'xml' : 'json', `${name} records`);
      const query = declaredQuery(c, declared.list);
      const paging = parsePaging(query);
      const created =
        query.DateCreated === undefined ? undefined : parseDateFilter('DateCreated', query.DateCreated);
      const page = await deps.store.gathers.list({
        accountSid,
        kind,
        callSid: query.CallSid,
        createdFrom: created?.first,
        createdTo: created?.last,
        ...windowOf(paging),
      });
      const doc = pageDocument({
        path: c.req.path,
        query,
        paging,
        page,
        rep: gatherRep,
        names: GATHER_LIST,
        withLimit: false,
      });
      return renderList(c, 'json', doc);
    };
    app.on('GET', [base, `${base}.json`, `${base}.xml`], declareRoute(declared.list), list);
    app.get(`${base}/:file`, declareRoute(declared.get), async (c) => {
      const accountSid = accountOf(c);
      const { id, format } = splitFormat(c.req.param('file'), 'json');
      requireJson(format, `${name} records`);
      const gather = await deps.store.gathers.get(accountSid, kind, id);
      if (!gather) throw notFound(name, id);
      return renderOne(c, 'json', name, gatherRep(gather));
    });
  }
}
