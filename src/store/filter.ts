/** In-memory evaluation of list queries: the memory store's engine and the SQLite store's model. */
import type {
  CallRecord,
  ConferenceRecord,
  GatherRecord,
  NotificationRecord,
  RecordingRecord,
} from '../engine/records.js';
import type {
  CallQuery,
  CallSortKey,
  ConferenceQuery,
  GatherQuery,
  NotificationQuery,
  Page,
  RecordingQuery,
  SortOrder,
  Window,
} from './types.js';

export function callMatches(q: CallQuery, c: CallRecord): boolean {
  if (c.accountSid !== q.accountSid) return false;
  if (q.to !== undefined && c.to !== q.to) return false;
  if (q.from !== undefined && c.from !== q.from) return false;
  if (q.status !== undefined && c.status !== q.status) return false;
  if (q.direction !== undefined && c.direction !== q.direction) return false;
  if (q.parentCallSid !== undefined && c.parentCallSid !== q.parentCallSid) return false;
  if (q.startedFrom !== undefined && (c.startTime === undefined || c.startTime < q.startedFrom)) return false;
  if (q.endedTo !== undefined && (c.endTime === undefined || c.endTime > q.endedTo)) return false;
  return true;
}

function callKey(c: CallRecord, by: CallSortKey): string | number {
  return by === 'duration' ? (c.duration ?? 0) : c[by];
}

function compareValues(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Sorts by the key, then by creation time and sid so pages are stable. */
export function compareCalls(by: CallSortKey, order: SortOrder) {
  const sign = order === 'asc' ? 1 : -1;
  return (a: CallRecord, b: CallRecord): number =>
    sign * compareValues(callKey(a, by), callKey(b, by)) ||
    a.dateCreated - b.dateCreated ||
    compareValues(a.sid, b.sid);
}

export function recordingMatches(q: RecordingQuery, r: RecordingRecord): boolean {
  if (r.accountSid !== q.accountSid) return false;
  if (q.callSid !== undefined && r.callSid !== q.callSid) return false;
  if (q.createdFrom !== undefined && r.dateCreated < q.createdFrom) return false;
  if (q.createdTo !== undefined && r.dateCreated > q.createdTo) return false;
  return true;
}

export function compareRecordings(q: RecordingQuery) {
  const by = q.sort?.by ?? 'dateCreated';
  const sign = q.sort?.order === 'desc' ? -1 : 1;
  return (a: RecordingRecord, b: RecordingRecord): number =>
    sign * compareValues(a[by], b[by]) || a.dateCreated - b.dateCreated || compareValues(a.sid, b.sid);
}

export function gatherMatches(q: GatherQuery, g: GatherRecord): boolean {
  if (g.accountSid !== q.accountSid || g.kind !== q.kind) return false;
  if (q.callSid !== undefined && g.callSid !== q.callSid) return false;
  if (q.createdFrom !== undefined && g.dateCreated < q.createdFrom) return false;
  if (q.createdTo !== undefined && g.dateCreated > q.createdTo) return false;
  return true;
}

/** Whether a notification passes every filter of the query (its account's, first). */
export function notificationMatches(q: NotificationQuery, n: NotificationRecord): boolean {
  if (n.accountSid !== q.accountSid) return false;
  if (q.callSid !== undefined && n.callSid !== q.callSid) return false;
  if (q.log !== undefined && n.log !== q.log) return false;
  if (q.createdFrom !== undefined && n.dateCreated < q.createdFrom) return false;
  if (q.createdTo !== undefined && n.dateCreated > q.createdTo) return false;
  return true;
}

/** Whether a room passes every filter of the query (its account's, first). */
export function conferenceMatches(q: ConferenceQuery, r: ConferenceRecord): boolean {
  if (r.accountSid !== q.accountSid) return false;
  if (q.friendlyName !== undefined && r.friendlyName !== q.friendlyName) return false;
  if (q.status !== undefined && r.status !== q.status) return false;
  if (q.createdFrom !== undefined && r.dateCreated < q.createdFrom) return false;
  if (q.createdTo !== undefined && r.dateCreated > q.createdTo) return false;
  if (q.updatedFrom !== undefined && r.dateUpdated < q.updatedFrom) return false;
  if (q.updatedTo !== undefined && r.dateUpdated > q.updatedTo) return false;
  return true;
}

export function byCreation(a: { dateCreated: number; sid: string }, b: { dateCreated: number; sid: string }) {
  return a.dateCreated - b.dateCreated || compareValues(a.sid, b.sid);
}

/** Filters, sorts and cuts a window out of the items (after `afterSid` when it is among them). */
export function pageOf<T extends { sid: string }>(
  items: Iterable<T>,
  window: Window,
  matches: (item: T) => boolean,
  compare: (a: T, b: T) => number,
): Page<T> {
  const all: T[] = [];
  for (const item of items) if (matches(item)) all.push(item);
  all.sort(compare);
  const anchor = window.afterSid === undefined ? -1 : all.findIndex((x) => x.sid === window.afterSid);
  const offset = anchor < 0 ? window.offset : anchor + 1;
  return { items: all.slice(offset, offset + window.limit), total: all.length, offset };
}
