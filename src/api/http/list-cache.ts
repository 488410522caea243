import type { RenderedBody } from './format.js';

/**
 * Rendered list pages, each kept with the version of the account's records it was rendered
 * from (see `CallRepository.version`): an entry is served only while that version is current,
 * so any write to the account's records retires every page of it. Bounded by the total length
 * of the kept bodies (characters or bytes); the least recently used go first.
 */
export interface ListCache {
  /** The page rendered for `key` at `version`, if still kept. */
  get(accountSid: string, key: string, version: number): RenderedBody | undefined;
  set(accountSid: string, key: string, version: number, page: RenderedBody): void;
  /** Length of the bodies kept (characters or bytes). */
  readonly size: number;
}

interface Entry {
  accountSid: string;
  version: number;
  page: RenderedBody;
}

/** A {@link ListCache} holding bodies of total length at most `maxLength` (0 keeps nothing). */
export function createListCache(maxLength: number): ListCache {
  // Map order is recency order: a hit moves its entry to the end.
  const entries = new Map<string, Entry>();
  // Newest version seen per account: once it moves on, that account's older entries are dead.
  const current = new Map<string, number>();
  let size = 0;
  const drop = (id: string, e: Entry) => {
    entries.delete(id);
    size -= e.page.body.length;
  };
  const retire = (accountSid: string, version: number) => {
    if ((current.get(accountSid) ?? version) === version) {
      current.set(accountSid, version);
      return;
    }
    current.set(accountSid, version);
    for (const [id, e] of entries) if (e.accountSid === accountSid && e.version !== version) drop(id, e);
  };
  return {
    get(accountSid, key, version) {
      retire(accountSid, version);
      const id = `${accountSid} ${key}`;
      const e = entries.get(id);
      if (!e || e.version !== version) return undefined;
      entries.delete(id);
      entries.set(id, e);
      return e.page;
    },
    set(accountSid, key, version, page) {
      const length = page.body.length;
      // A page bigger than a quarter of the room would push out most others for one query.
      if (length * 4 > maxLength) return;
      retire(accountSid, version);
      const id = `${accountSid} ${key}`;
      const old = entries.get(id);
      if (old) drop(id, old);
      for (const [oldest, e] of entries) {
        if (size + length <= maxLength) break;
        drop(oldest, e);
      }
      entries.set(id, { accountSid, version, page });
      size += length;
    },
    get size() {
      return size;
    },
  };
}
