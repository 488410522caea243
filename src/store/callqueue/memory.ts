import type { CallQueueEventRepository, CallQueueNumberRepository, CallQueueStore } from './ports.js';
import { PhoneNumberTakenError } from './ports.js';
import type { CallQueueEvent, CallQueueNumberRecord } from './types.js';

function memoryNumbers(): CallQueueNumberRepository {
  // Insertion order is creation order: a replaced record keeps its place.
  const bySid = new Map<string, CallQueueNumberRecord>();
  const byPhone = new Map<string, string>();
  return {
    async put(number) {
      const holder = byPhone.get(number.phoneNumber);
      if (holder !== undefined && holder !== number.sid) throw new PhoneNumberTakenError(number.phoneNumber);
      const old = bySid.get(number.sid);
      if (old && old.phoneNumber !== number.phoneNumber) byPhone.delete(old.phoneNumber);
      bySid.set(number.sid, { ...number });
      byPhone.set(number.phoneNumber, number.sid);
    },
    async get(accountSid, sid) {
      const n = bySid.get(sid);
      return n && n.accountSid === accountSid ? { ...n } : undefined;
    },
    async findByPhoneNumber(phoneNumber) {
      const sid = byPhone.get(phoneNumber);
      const n = sid === undefined ? undefined : bySid.get(sid);
      return n && { ...n };
    },
    async list(accountSid) {
      return [...bySid.values()].filter((n) => n.accountSid === accountSid).map((n) => ({ ...n }));
    },
    async listAll() {
      return [...bySid.values()].map((n) => ({ ...n }));
    },
    async delete(accountSid, sid) {
      const n = bySid.get(sid);
      if (!n || n.accountSid !== accountSid) return false;
      bySid.delete(sid);
      byPhone.delete(n.phoneNumber);
      return true;
    },
  };
}

function memoryEvents(): CallQueueEventRepository {
  const byNumber = new Map<string, CallQueueEvent[]>();
  let nextId = 1;
  return {
    async append(event) {
      const stored: CallQueueEvent = { ...event, id: nextId++ };
      const key = `${event.accountSid} ${event.numberSid}`;
      const list = byNumber.get(key);
      if (list) list.push(stored);
      else byNumber.set(key, [stored]);
      return { ...stored };
    },
    async list(accountSid, numberSid, filter = {}) {
      const list = byNumber.get(`${accountSid} ${numberSid}`) ?? [];
      const picked = filter.callSid === undefined ? list : list.filter((e) => e.callSid === filter.callSid);
      return picked.map((e) => ({ ...e }));
    },
  };
}

/** A Call Queuing store in memory (the library default): lost when the process ends. */
export function createMemoryCallQueueStore(): CallQueueStore {
  return { numbers: memoryNumbers(), events: memoryEvents(), close: async () => {} };
}
