import type { ConferenceRecord } from '../../engine/records.js';
import type { ConferenceRepository } from '../ports.js';
import { one, parsed } from './connection.js';
import { FilterBuilder, pageQuery, type Reader } from './paging.js';
import type { GroupWriter } from './writer.js';

/**
 * Conference rooms over PostgreSQL: the filtered columns, plus the room with its participants
 * as JSON. `node` is recorded as the owner of the rooms it writes.
 */
export function postgresConferences(
  db: Reader,
  writer: GroupWriter,
  node: string | null,
): ConferenceRepository {
  return {
    put: async (r) => {
      await writer.write(
        one(
          'rcml_conferences_put',
          `INSERT INTO conferences
            (sid, account_sid, friendly_name, status, owner_node, date_created, date_updated, data)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (sid) DO UPDATE SET
            account_sid = excluded.account_sid, friendly_name = excluded.friendly_name,
            status = excluded.status, owner_node = excluded.owner_node,
            date_created = excluded.date_created, date_updated = excluded.date_updated,
            data = excluded.data`,
          [
            r.sid,
            r.accountSid,
            r.friendlyName,
            r.status,
            node,
            r.dateCreated,
            r.dateUpdated,
            JSON.stringify(r),
          ],
        ),
      );
    },
    get: async (accountSid, sid) =>
      parsed<ConferenceRecord>(
        await db.query('SELECT data FROM conferences WHERE sid = $1 AND account_sid = $2', [sid, accountSid]),
      )[0],
    list: (q) =>
      pageQuery<ConferenceRecord>(
        db,
        'conferences',
        new FilterBuilder()
          .add('account_sid = ?', q.accountSid)
          .add('friendly_name = ?', q.friendlyName)
          .add('status = ?', q.status)
          .add('date_created >= ?', q.createdFrom)
          .add('date_created <= ?', q.createdTo)
          .add('date_updated >= ?', q.updatedFrom)
          .add('date_updated <= ?', q.updatedTo)
          .build(),
        q,
      ),
    listLive: async () =>
      parsed<ConferenceRecord>(
        await db.query(
          "SELECT data FROM conferences WHERE status <> 'completed' ORDER BY date_created, sid",
          [],
        ),
      ),
  };
}
