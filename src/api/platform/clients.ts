import type { Context, Hono } from 'hono';
import { API_VERSION } from '../../engine/records.js';
import { DuplicateLoginError } from '../../store/ports.js';
import { randomSid } from '../../store/sid.js';
import type { ClientRecord } from '../../store/types.js';
import { ApiError, notFound } from '../http/errors.js';
import { renderList, renderOne, splitFormat } from '../http/format.js';
import { pageDocument, parsePaging, windowOf } from '../http/paging.js';
import { readFields } from '../http/params.js';
import { declaredQuery, declareRoute } from '../openapi/declare.js';
import { parseOrThrow } from './call-params.js';
import * as ops from './client-operations.js';
import { accountOf, formatOfPath, type PlatformDeps, type PlatformEnv, withFormats } from './context.js';
import { clientRep } from './representations.js';

const CLIENT_LIST = { json: 'clients', xmlList: 'Clients', xmlItem: 'Client' };

type ClientFields = ReturnType<typeof ops.updateClientSchema.parse>;

/** The record with the given fields applied; an empty URL or application sid clears it. */
function applied(base: ClientRecord, f: ClientFields): ClientRecord {
  const next = { ...base };
  if (f.Login !== undefined) next.login = f.Login;
  if (f.Password !== undefined) next.password = f.Password;
  if (f.FriendlyName !== undefined) next.friendlyName = f.FriendlyName;
  if (f.Status !== undefined) next.status = f.Status;
  if (f.VoiceMethod !== undefined) next.voiceMethod = f.VoiceMethod;
  if (f.VoiceFallbackMethod !== undefined) next.voiceFallbackMethod = f.VoiceFallbackMethod;
  if (f.VoiceUrl !== undefined) next.voiceUrl = f.VoiceUrl || undefined;
  if (f.VoiceFallbackUrl !== undefined) next.voiceFallbackUrl = f.VoiceFallbackUrl || undefined;
  if (f.VoiceApplicationSid !== undefined) next.voiceApplicationSid = f.VoiceApplicationSid || undefined;
  return next;
}

/** Clients (an extension of the platform's interface): create, list, get, update, delete. */
export function registerClients(app: Hono<PlatformEnv>, deps: PlatformDeps, now: () => number): void {
  const { store } = deps;

  /** Stores the client: 409 naming Login when another client of the account has it. */
  const save = async (client: ClientRecord) => {
    try {
      await store.clients.put(client);
    } catch (err) {
      if (!(err instanceof DuplicateLoginError)) throw err;
      throw new ApiError(409, 'duplicate-login', `Login: ${err.message}`, 'Login');
    }
    await deps.clientsChanged?.();
  };

  const owned = async (c: Context<PlatformEnv>, fallback: 'xml' | 'json') => {
    const accountSid = accountOf(c);
    const { id, format } = splitFormat(c.req.param('file') ?? '', fallback);
    const client = await store.clients.get(accountSid, id);
    if (!client) throw notFound('Client', id);
    return { client, format };
  };

  app.on('GET', withFormats('/Accounts/:accountSid/Clients'), declareRoute(ops.listClients), async (c) => {
    const accountSid = accountOf(c);
    const query = declaredQuery(c, ops.listClients);
    const paging = parsePaging(query);
    const page = await store.clients.list({
      accountSid,
      login: query.Login,
      friendlyName: query.FriendlyName,
      ...windowOf(paging),
    });
    const doc = pageDocument({
      path: c.req.path,
      query,
      paging,
      page,
      rep: (client: ClientRecord) =>
        clientRep(client, deps.registrationOf?.(client.accountSid, client.login)),
      names: CLIENT_LIST,
      withLimit: false,
    });
    return renderList(c, formatOfPath(c.req.path), doc);
  });

  app.on('POST', withFormats('/Accounts/:accountSid/Clients'), declareRoute(ops.createClient), async (c) => {
    const accountSid = accountOf(c);
    const f = parseOrThrow(ops.createClientSchema, await readFields(c));
    const at = now();
    const client = applied(
      {
        sid: randomSid('CL'),
        accountSid,
        apiVersion: API_VERSION,
        friendlyName: f.Login,
        login: f.Login,
        password: f.Password,
        status: 'active',
        voiceMethod: 'POST',
        voiceFallbackMethod: 'POST',
        dateCreated: at,
        dateUpdated: at,
      },
      f,
    );
    await save(client);
    return renderOne(
      c,
      formatOfPath(c.req.path),
      'Client',
      clientRep(client, deps.registrationOf?.(client.accountSid, client.login)),
    );
  });

  app.get('/Accounts/:accountSid/Clients/:file', declareRoute(ops.getClient), async (c) => {
    const { client, format } = await owned(c, 'xml');
    return renderOne(
      c,
      format,
      'Client',
      clientRep(client, deps.registrationOf?.(client.accountSid, client.login)),
    );
  });

  app.post('/Accounts/:accountSid/Clients/:file', declareRoute(ops.updateClient), async (c) => {
    const { client, format } = await owned(c, 'xml');
    const f = parseOrThrow(ops.updateClientSchema, await readFields(c));
    const updated = { ...applied(client, f), dateUpdated: now() };
    await save(updated);
    return renderOne(
      c,
      format,
      'Client',
      clientRep(updated, deps.registrationOf?.(updated.accountSid, updated.login)),
    );
  });

  app.delete('/Accounts/:accountSid/Clients/:file', declareRoute(ops.deleteClient), async (c) => {
    const accountSid = accountOf(c);
    const { id } = splitFormat(c.req.param('file'), 'json');
    if (!(await store.clients.delete(accountSid, id))) throw notFound('Client', id);
    await deps.clientsChanged?.();
    return c.body(null, 204);
  });
}
