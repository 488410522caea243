import type {
  CallRecord,
  ConferenceRecord,
  GatherRecord,
  NotificationRecord,
  RecordingRecord,
} from '../engine/records.js';
import { TERMINAL_STATUSES } from '../engine/records.js';
import {
  byCreation,
  callMatches,
  compareCalls,
  compareRecordings,
  conferenceMatches,
  gatherMatches,
  notificationMatches,
  pageOf,
  recordingMatches,
} from './filter.js';
import { memoryClients } from './memory-clients.js';
import type { Store } from './ports.js';
import type { AccountRecord, ApplicationRecord } from './types.js';

const owned = <T extends { accountSid: string }>(item: T | undefined, accountSid: string) =>
  item && item.accountSid === accountSid ? structuredClone(item) : undefined;

/**
 * An in-memory store: the library's default. Records are copied in and out, so callers can
 * never change a stored record by mutating an object they hold. Every operation completes
 * before its promise is returned, so writes and reads keep the order they were made in.
 */
export function createMemoryStore(): Store {
  const accounts = new Map<string, AccountRecord>();
  const calls = new Map<string, CallRecord>();
  const recordings = new Map<string, { record: RecordingRecord; wav: Uint8Array }>();
  const gathers = new Map<string, GatherRecord>();
  const notifications = new Map<string, NotificationRecord>();
  const applications = new Map<string, ApplicationRecord>();
  const conferences = new Map<string, ConferenceRecord>();
  // Calls' version per account: the write sequence number of its last change.
  let writes = 0;
  const callVersions = new Map<string, number>();
  const putCall = (c: CallRecord) => {
    const before = calls.get(c.sid)?.accountSid;
    calls.set(c.sid, structuredClone(c));
    writes++;
    callVersions.set(c.accountSid, writes);
    // A call that moved account changes the list of the one it left, too.
    if (before !== undefined && before !== c.accountSid) callVersions.set(before, writes);
  };

  return {
    accounts: {
      put: async (a) => void accounts.set(a.sid, { ...a }),
      get: async (sid) => {
        const a = accounts.get(sid);
        return a && { ...a };
      },
      list: async () => [...accounts.values()].sort(byCreation).map((a) => ({ ...a })),
    },
    calls: {
      put: async (c) => putCall(c),
      putMany: async (cs) => {
        for (const c of cs) putCall(c);
      },
      get: async (accountSid, sid) => owned(calls.get(sid), accountSid),
      list: async (q) => {
        const page = pageOf(
          calls.values(),
          q,
          (c) => callMatches(q, c),
          compareCalls(q.sort?.by ?? 'dateCreated', q.sort?.order ?? 'asc'),
        );
        const total = q.countLimit === undefined ? page.total : Math.min(page.total, q.countLimit);
        return { ...page, items: page.items.map((c) => structuredClone(c)), total };
      },
      listLive: async () =>
        [...calls.values()].filter((c) => !TERMINAL_STATUSES.has(c.status)).map((c) => structuredClone(c)),
      version: async (accountSid) => callVersions.get(accountSid) ?? 0,
    },
    recordings: {
      put: async (r, wav) => void recordings.set(r.sid, { record: { ...r }, wav: Uint8Array.from(wav) }),
      get: async (accountSid, sid) => owned(recordings.get(sid)?.record, accountSid),
      wav: async (accountSid, sid) => {
        const entry = recordings.get(sid);
        return entry && entry.record.accountSid === accountSid ? Uint8Array.from(entry.wav) : undefined;
      },
      delete: async (accountSid, sid) => {
        if (!owned(recordings.get(sid)?.record, accountSid)) return false;
        return recordings.delete(sid);
      },
      list: async (q) => {
        const page = pageOf(
          [...recordings.values()].map((e) => e.record),
          q,
          (r) => recordingMatches(q, r),
          compareRecordings(q),
        );
        return { ...page, items: page.items.map((r) => ({ ...r })) };
      },
    },
    gathers: {
      put: async (g) => void gathers.set(g.sid, { ...g }),
      get: async (accountSid, kind, sid) => {
        const g = owned(gathers.get(sid), accountSid);
        return g && g.kind === kind ? g : undefined;
      },
      list: async (q) => {
        const page = pageOf(gathers.values(), q, (g) => gatherMatches(q, g), byCreation);
        return { ...page, items: page.items.map((g) => ({ ...g })) };
      },
    },
    notifications: {
      put: async (n) => void notifications.set(n.sid, { ...n }),
      get: async (accountSid, sid) => owned(notifications.get(sid), accountSid),
      list: async (q) => {
        const page = pageOf(notifications.values(), q, (n) => notificationMatches(q, n), byCreation);
        return { ...page, items: page.items.map((n) => ({ ...n })) };
      },
    },
    applications: {
      put: async (a) => void applications.set(a.sid, { ...a }),
      get: async (accountSid, sid) => owned(applications.get(sid), accountSid),
      delete: async (accountSid, sid) =>
        owned(applications.get(sid), accountSid) !== undefined && applications.delete(sid),
    },
    conferences: {
      put: async (r) => void conferences.set(r.sid, structuredClone(r)),
      get: async (accountSid, sid) => owned(conferences.get(sid), accountSid),
      list: async (q) => {
        const page = pageOf(conferences.values(), q, (r) => conferenceMatches(q, r), byCreation);
        return { ...page, items: page.items.map((r) => structuredClone(r)) };
      },
      listLive: async () =>
        [...conferences.values()]
          .filter((r) => r.status !== 'completed')
          .sort(byCreation)
          .map((r) => structuredClone(r)),
    },
    clients: memoryClients(),
    close: async () => {},
  };
}
