/**
 * An Auto Attendant user acts within its own enterprise only. Rather than trusting every route
 * to remember it, the areas read and write through a store view that holds each request to the
 * enterprise of the user who made it: another enterprise's records read as absent, searches see
 * only the user's enterprise, and a write into another enterprise is refused. The account
 * holder's requests have no scope and see the whole account.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  AnnouncementRepository,
  EnterpriseStore,
  Repository,
  UserRepository,
  WorkspaceRepository,
} from '../../store/enterprise/ports.js';
import type { SearchQuery } from '../../store/enterprise/types.js';
import type { Page } from '../../store/types.js';

/** The enterprise the current request is held to; undefined for the account holder. */
export class EnterpriseScope {
  private readonly storage = new AsyncLocalStorage<string>();

  /** Runs `work` (and everything it awaits) held to `enterpriseSid`. */
  run<T>(enterpriseSid: string, work: () => T): T {
    return this.storage.run(enterpriseSid, work);
  }

  /** The current request's enterprise, if it is held to one. */
  current(): string | undefined {
    return this.storage.getStore();
  }
}

type Scoped = { sid: string; accountSid: string; enterpriseSid?: string };

/** A write outside the scope: the routes look records up first, so this is a safety net. */
export class OutOfScopeError extends Error {
  constructor(sid: string) {
    super(`record ${sid} belongs to another enterprise`);
    this.name = 'OutOfScopeError';
  }
}

function scopedRepository<R extends Scoped, T extends Repository<R>>(
  inner: T,
  scope: EnterpriseScope,
  enterpriseOf: (r: R) => string | undefined = (r) => r.enterpriseSid,
): T {
  const allowed = (r: R | undefined) => {
    const held = scope.current();
    return r !== undefined && (held === undefined || enterpriseOf(r) === held);
  };
  return {
    ...inner,
    async put(record: R) {
      if (!allowed(record)) throw new OutOfScopeError(record.sid);
      return inner.put(record);
    },
    async get(accountSid: string, sid: string) {
      const found = await inner.get(accountSid, sid);
      return allowed(found) ? found : undefined;
    },
    async search(query: SearchQuery): Promise<Page<R>> {
      const held = scope.current();
      if (held === undefined) return inner.search(query);
      if (query.enterpriseSid !== undefined && query.enterpriseSid !== held)
        return { items: [], total: 0, offset: query.offset };
      return inner.search({ ...query, enterpriseSid: held });
    },
  };
}

/** The store seen through the request's scope. */
export function scopedEnterpriseStore(store: EnterpriseStore, scope: EnterpriseScope): EnterpriseStore {
  const announcements = scopedRepository(store.announcements, scope) as AnnouncementRepository;
  const workspaces = scopedRepository(store.workspaces, scope) as WorkspaceRepository;
  const users = scopedRepository(store.users, scope) as UserRepository;
  const held = (enterpriseSid: string) => {
    const s = scope.current();
    return s === undefined || s === enterpriseSid;
  };
  return {
    enterprises: scopedRepository(store.enterprises, scope, (e) => e.sid),
    users,
    announcements: {
      ...announcements,
      async putAudio(record, wav) {
        if (!held(record.enterpriseSid)) throw new OutOfScopeError(record.sid);
        return store.announcements.putAudio(record, wav);
      },
    },
    workspaces: {
      ...workspaces,
      async create(workspace, activities) {
        if (!held(workspace.enterpriseSid)) throw new OutOfScopeError(workspace.sid);
        return store.workspaces.create(workspace, activities);
      },
      async delete(accountSid, sid) {
        if (!(await workspaces.get(accountSid, sid))) return false;
        return store.workspaces.delete(accountSid, sid);
      },
    },
    activities: scopedRepository(store.activities, scope),
    taskQueues: scopedRepository(store.taskQueues, scope),
    close: () => store.close(),
  };
}
