import type { Page } from '../types.js';
import {
  compareFields,
  fieldsMatch,
  fieldsOf,
  type Owned,
  type RecordFields,
  type RecordKind,
} from './fields.js';
import { DuplicateRecordError, type EnterpriseStore, type Repository } from './ports.js';
import type {
  AaUserRecord,
  ActivityRecord,
  AnnouncementRecord,
  EnterpriseRecord,
  SearchQuery,
  TaskQueueRecord,
  WorkspaceRecord,
} from './types.js';

interface Table<R extends Owned> extends Repository<R> {
  rows: Map<string, { record: R; fields: RecordFields }>;
  check(record: R): void;
}

function memoryTable<R extends Owned>(kind: RecordKind): Table<R> {
  const rows = new Map<string, { record: R; fields: RecordFields }>();
  const check = (record: R) => {
    const fields = fieldsOf(kind, record);
    if (fields.unique === null) return;
    for (const row of rows.values()) {
      if (
        row.fields.sid !== fields.sid &&
        row.fields.accountSid === fields.accountSid &&
        row.fields.unique === fields.unique
      ) {
        throw new DuplicateRecordError(kind, fields.unique);
      }
    }
  };
  return {
    rows,
    check,
    async put(record) {
      check(record);
      rows.set(record.sid, { record: structuredClone(record), fields: fieldsOf(kind, record) });
    },
    async get(accountSid, sid) {
      const row = rows.get(sid);
      return row && row.record.accountSid === accountSid ? structuredClone(row.record) : undefined;
    },
    async search(query: SearchQuery): Promise<Page<R>> {
      const matched = [...rows.values()].filter((r) => fieldsMatch(r.fields, query));
      const order = compareFields(query);
      matched.sort((a, b) => order(a.fields, b.fields));
      return {
        items: matched.slice(query.offset, query.offset + query.limit).map((r) => structuredClone(r.record)),
        total: matched.length,
        offset: query.offset,
      };
    },
  };
}

/** An in-memory enterprise store (the library default). Records are copied in and out. */
export function createMemoryEnterpriseStore(): EnterpriseStore {
  const enterprises = memoryTable<EnterpriseRecord>('enterprise');
  const users = memoryTable<AaUserRecord>('user');
  const announcements = memoryTable<AnnouncementRecord>('announcement');
  const workspaces = memoryTable<WorkspaceRecord>('workspace');
  const activities = memoryTable<ActivityRecord>('activity');
  const taskQueues = memoryTable<TaskQueueRecord>('taskQueue');
  const audio = new Map<string, Uint8Array>();
  return {
    enterprises: {
      ...enterprises,
      async ownerOf(sid) {
        return enterprises.rows.get(sid)?.record.accountSid;
      },
    },
    users: {
      ...users,
      async withEmail(email) {
        const key = email.toLowerCase();
        return [...users.rows.values()]
          .filter((r) => r.fields.emailKey === key)
          .map((r) => structuredClone(r.record));
      },
    },
    announcements: {
      ...announcements,
      async putAudio(record, wav) {
        await announcements.put(record);
        audio.set(record.sid, wav.slice());
      },
      async audio(sid) {
        const row = announcements.rows.get(sid);
        const wav = audio.get(sid);
        return row && wav ? { record: structuredClone(row.record), wav: wav.slice() } : undefined;
      },
    },
    workspaces: {
      ...workspaces,
      async create(workspace, acts) {
        workspaces.check(workspace);
        const keys = new Set<string>();
        for (const a of acts) {
          activities.check(a);
          const key = fieldsOf('activity', a).unique ?? a.sid;
          if (keys.has(key)) throw new DuplicateRecordError('activity', key);
          keys.add(key);
        }
        await workspaces.put(workspace);
        for (const a of acts) await activities.put(a);
      },
      async delete(accountSid, sid) {
        const row = workspaces.rows.get(sid);
        if (!row || row.record.accountSid !== accountSid) return false;
        workspaces.rows.delete(sid);
        for (const table of [activities.rows, taskQueues.rows] as Array<
          Map<string, { fields: RecordFields }>
        >) {
          for (const [key, r] of table) if (r.fields.workspaceSid === sid) table.delete(key);
        }
        return true;
      },
    },
    activities,
    taskQueues,
    close: async () => {},
  };
}
