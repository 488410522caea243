import {
  CLIENT_WRITE,
  isUniqueViolation,
  one,
  type PostgresConnection,
  parsed,
} from '../postgres/connection.js';
import type { CallQueueEventRepository, CallQueueNumberRepository, CallQueueStore } from './ports.js';
import { PhoneNumberTakenError } from './ports.js';
import type { CallQueueEvent, CallQueueNumberRecord } from './types.js';

function postgresNumbers({ db, writer }: PostgresConnection): CallQueueNumberRepository {
  return {
    async put(number) {
      try {
        // `seq` is drawn on insert only: a replaced record keeps its place.
        await writer.write(
          one(
            'rcml_callqueue_numbers_put',
            `INSERT INTO callqueue_numbers (sid, account_sid, phone_number, data) VALUES ($1, $2, $3, $4)
              ON CONFLICT (sid) DO UPDATE SET account_sid = excluded.account_sid,
              phone_number = excluded.phone_number, data = excluded.data`,
            [number.sid, number.accountSid, number.phoneNumber, JSON.stringify(number)],
          ),
          CLIENT_WRITE,
        );
      } catch (err) {
        if (isUniqueViolation(err)) throw new PhoneNumberTakenError(number.phoneNumber);
        throw err;
      }
    },
    async get(accountSid, sid) {
      return parsed<CallQueueNumberRecord>(
        await db.query('SELECT data FROM callqueue_numbers WHERE sid = $1 AND account_sid = $2', [
          sid,
          accountSid,
        ]),
      )[0];
    },
    async findByPhoneNumber(phoneNumber) {
      return parsed<CallQueueNumberRecord>(
        await db.query('SELECT data FROM callqueue_numbers WHERE phone_number = $1', [phoneNumber]),
      )[0];
    },
    async list(accountSid) {
      return parsed(
        await db.query('SELECT data FROM callqueue_numbers WHERE account_sid = $1 ORDER BY seq', [
          accountSid,
        ]),
      );
    },
    async listAll() {
      return parsed(await db.query('SELECT data FROM callqueue_numbers ORDER BY seq', []));
    },
    async delete(accountSid, sid) {
      const res = await writer.write(
        one(
          'rcml_callqueue_numbers_delete',
          'DELETE FROM callqueue_numbers WHERE sid = $1 AND account_sid = $2',
          [sid, accountSid],
        ),
        CLIENT_WRITE,
      );
      return (res.rowCount ?? 0) > 0;
    },
  };
}

function postgresEvents({ db, writer }: PostgresConnection): CallQueueEventRepository {
  const read = (r: { id: number; data: string }): CallQueueEvent => ({ ...JSON.parse(r.data), id: r.id });
  return {
    async append(event) {
      const res = await writer.write(
        one(
          'rcml_callqueue_events_append',
          'INSERT INTO callqueue_events (account_sid, number_sid, call_sid, data) VALUES ($1, $2, $3, $4) RETURNING id',
          [event.accountSid, event.numberSid, event.callSid, JSON.stringify(event)],
        ),
      );
      return { ...event, id: (res.rows[0] as { id: number }).id };
    },
    async list(accountSid, numberSid, filter = {}) {
      const rows =
        filter.callSid === undefined
          ? await db.query<{ id: number; data: string }>(
              'SELECT id, data FROM callqueue_events WHERE account_sid = $1 AND number_sid = $2 ORDER BY id',
              [accountSid, numberSid],
            )
          : await db.query<{ id: number; data: string }>(
              `SELECT id, data FROM callqueue_events
                WHERE account_sid = $1 AND number_sid = $2 AND call_sid = $3 ORDER BY id`,
              [accountSid, numberSid, filter.callSid],
            );
      return rows.map(read);
    },
  };
}

/**
 * The Call Queuing store in the PostgreSQL database of a platform store (its tables are
 * migrated when that store opens), so every node routes and reports the same numbers. It
 * shares the platform store's pool and writes; closing the platform store closes it.
 */
export function postgresCallQueueStore(connection: PostgresConnection): CallQueueStore {
  return {
    numbers: postgresNumbers(connection),
    events: postgresEvents(connection),
    close: () => connection.writer.settled(),
  };
}
