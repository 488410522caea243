import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { PruneCounts } from '../retention.js';
import { emptyCounts } from '../retention.js';

/**
 * Removes a batch of old records of every account in one transaction (a savepoint when a
 * transaction is already open), reading each table through its `(account_sid, date_created)`
 * index. Recording files are removed once their rows are gone: a row never outlives its file.
 * `callsRemoved` tells the calls repository which accounts' lists changed.
 */
export function sqlitePruner(
  db: Database.Database,
  dataDir: string,
  callsRemoved: (accountSid: string) => void,
): (before: number, limit: number) => Promise<PruneCounts> {
  const accounts = db.prepare('SELECT sid FROM accounts').pluck();
  const oldCalls = db
    .prepare(
      'SELECT sid FROM calls WHERE account_sid = ? AND date_created < ? AND live = 0 ORDER BY date_created LIMIT ?',
    )
    .pluck();
  const deleteCall = db.prepare('DELETE FROM calls WHERE sid = ?');
  const oldRecordings = db.prepare(
    'SELECT sid, file FROM recordings WHERE account_sid = ? AND date_created < ? ORDER BY date_created LIMIT ?',
  );
  const deleteRecording = db.prepare('DELETE FROM recordings WHERE sid = ?');
  const oldGathers = db
    .prepare(
      'SELECT sid FROM gathers WHERE account_sid = ? AND kind = ? AND date_created < ? ORDER BY date_created LIMIT ?',
    )
    .pluck();
  const deleteGather = db.prepare('DELETE FROM gathers WHERE sid = ?');
  const oldNotifications = db
    .prepare(
      'SELECT sid FROM notifications WHERE account_sid = ? AND date_created < ? ORDER BY date_created LIMIT ?',
    )
    .pluck();
  const deleteNotification = db.prepare('DELETE FROM notifications WHERE sid = ?');
  // Ended rooms only: an open one is still running on some node.
  const oldConferences = db
    .prepare(
      "SELECT sid FROM conferences WHERE account_sid = ? AND date_created < ? AND status = 'completed' ORDER BY date_created LIMIT ?",
    )
    .pluck();
  const deleteConference = db.prepare('DELETE FROM conferences WHERE sid = ?');

  const batch = db.transaction((before: number, limit: number) => {
    const counts: PruneCounts = emptyCounts();
    const files: string[] = [];
    for (const account of accounts.all() as string[]) {
      const calls = oldCalls.all(account, before, limit) as string[];
      for (const sid of calls) deleteCall.run(sid);
      if (calls.length > 0) callsRemoved(account);
      counts.calls += calls.length;
      const recordings = oldRecordings.all(account, before, limit) as Array<{ sid: string; file: string }>;
      for (const r of recordings) {
        deleteRecording.run(r.sid);
        files.push(r.file);
      }
      counts.recordings += recordings.length;
      for (const kind of ['dtmf', 'speech']) {
        const gathers = oldGathers.all(account, kind, before, limit) as string[];
        for (const sid of gathers) deleteGather.run(sid);
        counts.gathers += gathers.length;
      }
      const notifications = oldNotifications.all(account, before, limit) as string[];
      for (const sid of notifications) deleteNotification.run(sid);
      counts.notifications += notifications.length;
      const conferences = oldConferences.all(account, before, limit) as string[];
      for (const sid of conferences) deleteConference.run(sid);
      counts.conferences += conferences.length;
    }
    return { counts, files };
  });

  return async (before, limit) => {
    const { counts, files } = batch(before, limit);
    for (const file of files) rmSync(join(dataDir, 'recordings', file), { force: true });
    return counts;
  };
}
