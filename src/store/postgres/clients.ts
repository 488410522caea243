import { type ClientRepository, DuplicateLoginError } from '../ports.js';
import type { ClientRecord } from '../types.js';
import { CLIENT_WRITE, isUniqueViolation, one, parsed } from './connection.js';
import { FilterBuilder, pageQuery, type Reader } from './paging.js';
import type { GroupWriter } from './writer.js';

/** Clients over PostgreSQL; the unique index on (account, login) refuses a taken login. */
export function postgresClients(db: Reader, writer: GroupWriter): ClientRepository {
  return {
    put: async (c) => {
      try {
        await writer.write(
          one(
            'rcml_clients_put',
            `INSERT INTO clients (sid, account_sid, login, friendly_name, date_created, data)
              VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sid) DO UPDATE SET
              account_sid = excluded.account_sid, login = excluded.login,
              friendly_name = excluded.friendly_name, data = excluded.data`,
            [c.sid, c.accountSid, c.login, c.friendlyName, c.dateCreated, JSON.stringify(c)],
          ),
          CLIENT_WRITE,
        );
      } catch (err) {
        throw isUniqueViolation(err) ? new DuplicateLoginError(c.login) : err;
      }
    },
    get: async (accountSid, sid) =>
      parsed<ClientRecord>(
        await db.query('SELECT data FROM clients WHERE sid = $1 AND account_sid = $2', [sid, accountSid]),
      )[0],
    list: (q) =>
      pageQuery<ClientRecord>(
        db,
        'clients',
        new FilterBuilder()
          .add('account_sid = ?', q.accountSid)
          .add('login = ?', q.login)
          .add('friendly_name = ?', q.friendlyName)
          .build(),
        q,
      ),
    delete: async (accountSid, sid) => {
      const res = await writer.write(
        one('rcml_clients_delete', 'DELETE FROM clients WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
        CLIENT_WRITE,
      );
      return (res.rowCount ?? 0) > 0;
    },
    all: async () =>
      parsed<ClientRecord>(await db.query('SELECT data FROM clients ORDER BY date_created, sid', [])),
  };
}
