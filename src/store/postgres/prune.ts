import type pg from 'pg';
import { emptyCounts, type PruneCounts } from '../retention.js';
import { unanswered } from './writer.js';

/** Deletes one batch of a table's old rows of an account; resolves with how many went. */
async function deleteOld(
  client: pg.PoolClient,
  table: 'calls' | 'recordings' | 'gathers' | 'notifications' | 'conferences',
  account: string,
  before: number,
  limit: number,
): Promise<number> {
  // Recordings' audio is a column of their row: it goes with it.
  const live =
    table === 'calls' ? ' AND NOT live' : table === 'conferences' ? " AND status = 'completed'" : '';
  const result = await client.query(
    `DELETE FROM ${table} WHERE sid IN (
       SELECT sid FROM ${table} WHERE account_sid = $1 AND date_created < $2${live}
       ORDER BY date_created LIMIT $3)`,
    [account, before, limit],
  );
  return result.rowCount ?? 0;
}

/**
 * Removes a batch of old records of every account, one transaction per account, through the
 * `(account_sid, date_created)` indexes; an account that lost calls gets a new calls version so
 * every node's cached lists are dropped.
 */
export function postgresPruner(pool: pg.Pool): (before: number, limit: number) => Promise<PruneCounts> {
  return async (before, limit) => {
    const counts = emptyCounts();
    const { rows } = await pool.query<{ sid: string }>('SELECT sid FROM accounts');
    for (const { sid: account } of rows) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const calls = await deleteOld(client, 'calls', account, before, limit);
        if (calls > 0) {
          await client.query(
            "UPDATE call_versions SET version = nextval('call_version_seq') WHERE account_sid = $1",
            [account],
          );
        }
        counts.calls += calls;
        counts.recordings += await deleteOld(client, 'recordings', account, before, limit);
        counts.gathers += await deleteOld(client, 'gathers', account, before, limit);
        counts.notifications += await deleteOld(client, 'notifications', account, before, limit);
        counts.conferences += await deleteOld(client, 'conferences', account, before, limit);
        await client.query('COMMIT');
      } catch (err) {
        // An unanswered query's connection is closed, not rolled back (see `writer.ts`).
        if (unanswered(err)) broken = err as Error;
        else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    }
    return counts;
  };
}
