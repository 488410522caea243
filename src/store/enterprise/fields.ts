/**
 * What each kind of record is searched, sorted and kept unique by. Both stores derive their
 * columns from here, so they filter and order alike.
 */
import type { SearchQuery } from './types.js';

/** The searchable columns of a record. Keys are lower-cased once, here. */
export interface RecordFields {
  sid: string;
  accountSid: string;
  enterpriseSid: string | null;
  workspaceSid: string | null;
  nameKey: string;
  emailKey: string;
  role: string;
  status: string;
  dateCreated: number;
  /** What must be unique among records of the kind in one account; null when nothing. */
  unique: string | null;
}

/** What every stored record carries: its sid, its account and when it was created. */
export type Owned = { sid: string; accountSid: string; dateCreated: number };

/** The column each search sort orders by (the SQL stores). */
export const SORT_COLUMN = { name: 'name_key', email: 'email_key', dateCreated: 'date_created' } as const;

/** The kinds of record, each with how its fields are read. */
export type RecordKind = 'enterprise' | 'user' | 'announcement' | 'workspace' | 'activity' | 'taskQueue';

interface Loose {
  sid: string;
  accountSid: string;
  dateCreated: number;
  name?: string;
  enterpriseSid?: string;
  workspaceSid?: string;
  emailId?: string;
  role?: string;
  status?: string;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();

/** Reads the searchable fields of a record of `kind`. */
export function fieldsOf(kind: RecordKind, record: Loose): RecordFields {
  const enterpriseSid = kind === 'enterprise' ? record.sid : (record.enterpriseSid ?? null);
  const workspaceSid = kind === 'workspace' ? record.sid : (record.workspaceSid ?? null);
  let unique: string | null = null;
  // Names and e-mails are unique regardless of case: "Sales" and "sales" would confuse people.
  if (kind === 'user') unique = lower(record.emailId);
  else if (kind === 'workspace') unique = `${record.enterpriseSid}/${lower(record.name)}`;
  else if (kind === 'taskQueue' || kind === 'activity')
    unique = `${record.workspaceSid}/${lower(record.name)}`;
  return {
    sid: record.sid,
    accountSid: record.accountSid,
    enterpriseSid,
    workspaceSid,
    nameKey: lower(record.name),
    emailKey: lower(record.emailId),
    role: record.role ?? '',
    status: record.status ?? '',
    dateCreated: record.dateCreated,
    unique,
  };
}

/** Whether a record's fields pass every filter of a query. */
export function fieldsMatch(f: RecordFields, q: SearchQuery): boolean {
  return (
    f.accountSid === q.accountSid &&
    (q.enterpriseSid === undefined || f.enterpriseSid === q.enterpriseSid) &&
    (q.workspaceSid === undefined || f.workspaceSid === q.workspaceSid) &&
    (q.nameContains === undefined || f.nameKey.includes(q.nameContains.toLowerCase())) &&
    (q.emailContains === undefined || f.emailKey.includes(q.emailContains.toLowerCase())) &&
    (q.role === undefined || f.role === q.role) &&
    (q.status === undefined || f.status === q.status) &&
    (q.createdFrom === undefined || f.dateCreated >= q.createdFrom) &&
    (q.createdTo === undefined || f.dateCreated <= q.createdTo)
  );
}

// SQLite compares TEXT as UTF-8 bytes; comparing the same way here keeps both stores in step.
const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The search order: the query's attribute (ascending by default), then creation time, then sid. */
export function compareFields(q: SearchQuery): (a: RecordFields, b: RecordFields) => number {
  const by = q.sort?.by ?? 'dateCreated';
  const sign = q.sort?.order === 'desc' ? -1 : 1;
  return (a, b) => {
    let d = 0;
    if (by === 'name') d = utf8(a.nameKey, b.nameKey);
    else if (by === 'email') d = utf8(a.emailKey, b.emailKey);
    if (d === 0) d = a.dateCreated - b.dateCreated;
    if (d === 0) d = utf8(a.sid, b.sid);
    return sign * d;
  };
}
