/**
 * `Accounts`: the authenticated account and its sub-accounts. `GET/POST Accounts` lists and
 * creates sub-accounts; `GET/POST Accounts/{AccountSid}` reads and changes the account itself
 * (its `FriendlyName`) or one of its sub-accounts (`FriendlyName`, `Status`). Any other account
 * is a 403, as before. Closing a sub-account ends its live calls.
 */
import type { Context, Hono } from 'hono';
import { AccountChangeError, changeAccount, createAccount, statusOf } from '../../store/account-admin.js';
import type { AccountRecord, AccountStatus } from '../../store/types.js';
import { ApiError, badParameter } from '../http/errors.js';
import { renderList, renderOne, splitFormat } from '../http/format.js';
import { readFields } from '../http/params.js';
import { declareRoute } from '../openapi/declare.js';
import { MAX_FRIENDLY_NAME } from './applications.js';
import type { PlatformDeps, PlatformEnv } from './context.js';
import { createAccount as createDeclaration, getAccount, listAccounts, updateAccount } from './operations.js';
import { accountRep } from './representations.js';

const forbidden = (account: AccountRecord, id: string) =>
  new ApiError(403, 'forbidden', `the credentials of ${account.sid} give no access to account ${id}`);

/** The account itself, or one of its sub-accounts; 403 for any other. */
async function reachable(deps: PlatformDeps, c: Context<PlatformEnv>, id: string): Promise<AccountRecord> {
  const me = c.get('account');
  if (id === me.sid) return me;
  const other = await deps.store.accounts.get(id);
  if (!other || other.ownerSid !== me.sid) throw forbidden(me, id);
  return other;
}

function friendlyName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_FRIENDLY_NAME)
    throw badParameter('FriendlyName', `must be 1 to ${MAX_FRIENDLY_NAME} characters`);
  return trimmed;
}

function accountStatus(value: string | undefined): AccountStatus | undefined {
  if (value === undefined) return undefined;
  const status = value.trim().toLowerCase();
  if (status !== 'active' && status !== 'suspended' && status !== 'closed')
    throw badParameter('Status', 'must be active, suspended or closed');
  return status;
}

/** Ends the live calls of a closed account (those the store shows as not yet ended). */
async function endLiveCalls(deps: PlatformDeps, accountSid: string): Promise<void> {
  const control = deps.callControl;
  if (!control) return;
  for (const status of ['in-progress', 'ringing', 'queued'] as const) {
    const page = await deps.store.calls.list({ accountSid, status, offset: 0, limit: 10_000 });
    for (const call of page.items) {
      await control
        .modifyCall(accountSid, call.sid, {
          status: status === 'in-progress' ? 'completed' : 'canceled',
          method: 'POST',
          fallbackMethod: 'POST',
          statusCallbackMethod: 'POST',
          childCallMode: 'Hangup',
        })
        // A call that ended meanwhile is what closing wants anyway.
        .catch(() => undefined);
    }
  }
}

export function registerAccounts(app: Hono<PlatformEnv>, deps: PlatformDeps, now: () => number): void {
  const listPaths = ['/Accounts', '/Accounts.json', '/Accounts.xml'];
  for (const path of listPaths) {
    const format = path.endsWith('.json') ? 'json' : 'xml';
    app.get(path, declareRoute(listAccounts), async (c) => {
      const me = c.get('account');
      const all = await deps.store.accounts.list();
      const mine = [me, ...all.filter((a) => a.ownerSid === me.sid)];
      return renderList(c, format, {
        envelope: [],
        names: { json: 'accounts', xmlList: 'Accounts', xmlItem: 'Account' },
        items: mine.map(accountRep),
      });
    });
    app.post(path, declareRoute(createDeclaration), async (c) => {
      const me = c.get('account');
      if (me.ownerSid !== undefined)
        throw new ApiError(403, 'forbidden', 'a sub-account cannot create accounts');
      const fields = await readFields(c);
      const name = friendlyName(fields.FriendlyName) ?? `Sub-account of ${me.sid}`;
      const { account, authToken } = await createAccount(deps.store.accounts, {
        friendlyName: name,
        ownerSid: me.sid,
        now: now(),
      });
      return renderOne(c, format, 'Account', [
        ...accountRep(account),
        ['AuthToken', 'auth_token', authToken],
      ]);
    });
  }

  app.get('/Accounts/:file', declareRoute(getAccount), async (c) => {
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    return renderOne(c, format, 'Account', accountRep(await reachable(deps, c, id)));
  });

  app.post('/Accounts/:file', declareRoute(updateAccount), async (c) => {
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    const target = await reachable(deps, c, id);
    const fields = await readFields(c);
    const change = { friendlyName: friendlyName(fields.FriendlyName), status: accountStatus(fields.Status) };
    if (
      change.status !== undefined &&
      target.sid === c.get('account').sid &&
      change.status !== statusOf(target)
    ) {
      throw new ApiError(
        403,
        'forbidden',
        "an account's own Status is changed by its owner or with rcml account",
      );
    }
    let after: AccountRecord;
    try {
      ({ after } = await changeAccount(deps.store.accounts, target.sid, change, now()));
    } catch (err) {
      if (err instanceof AccountChangeError && err.reason === 'closed')
        throw badParameter('Status', err.message);
      throw err;
    }
    if (after.status === 'closed' && statusOf(target) !== 'closed') await endLiveCalls(deps, after.sid);
    return renderOne(c, format, 'Account', accountRep(after));
  });
}
