import { byCreation, pageOf } from './filter.js';
import { type ClientRepository, DuplicateLoginError } from './ports.js';
import type { ClientQuery, ClientRecord } from './types.js';

export function clientMatches(q: ClientQuery, c: ClientRecord): boolean {
  if (c.accountSid !== q.accountSid) return false;
  if (q.login !== undefined && c.login !== q.login) return false;
  if (q.friendlyName !== undefined && c.friendlyName !== q.friendlyName) return false;
  return true;
}

/** Clients in memory, copied in and out; a login taken by another client of the account is refused. */
export function memoryClients(): ClientRepository {
  const clients = new Map<string, ClientRecord>();
  const owned = (sid: string, accountSid: string) => {
    const c = clients.get(sid);
    return c && c.accountSid === accountSid ? { ...c } : undefined;
  };
  return {
    put: async (client) => {
      for (const other of clients.values()) {
        if (
          other.accountSid === client.accountSid &&
          other.login === client.login &&
          other.sid !== client.sid
        ) {
          throw new DuplicateLoginError(client.login);
        }
      }
      clients.set(client.sid, { ...client });
    },
    get: async (accountSid, sid) => owned(sid, accountSid),
    list: async (q) => {
      const page = pageOf(clients.values(), q, (c) => clientMatches(q, c), byCreation);
      return { ...page, items: page.items.map((c) => ({ ...c })) };
    },
    delete: async (accountSid, sid) => owned(sid, accountSid) !== undefined && clients.delete(sid),
    all: async () => [...clients.values()].sort(byCreation).map((c) => ({ ...c })),
  };
}
