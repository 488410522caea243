import type { Hono } from 'hono';
import { ApiError } from '../http/errors.js';
import { renderOne, splitFormat } from '../http/format.js';
import { declareRoute } from '../openapi/declare.js';
import type { PlatformEnv } from './context.js';
import { getAccount } from './operations.js';
import { accountRep } from './representations.js';

/** `GET Accounts/{AccountSid}[.json|.xml]`: the authenticated account (another one's: 403). */
export function registerAccounts(app: Hono<PlatformEnv>): void {
  app.get('/Accounts/:file', declareRoute(getAccount), (c) => {
    const { id, format } = splitFormat(c.req.param('file'), 'xml');
    const account = c.get('account');
    if (id !== account.sid) {
      throw new ApiError(
        403,
        'forbidden',
        `the credentials of ${account.sid} give no access to account ${id}`,
      );
    }
    return renderOne(c, format, 'Account', accountRep(account));
  });
}
