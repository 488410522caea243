import type { Store } from './ports.js';
import type { Page, Window } from './types.js';

const PAGE = 1000;

async function eachPage<T extends { sid: string }>(
  list: (window: Window) => Promise<Page<T>>,
  visit: (sid: string) => void,
): Promise<void> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await list({ offset, limit: PAGE });
    for (const item of page.items) visit(item.sid);
    if (page.items.length < PAGE) return;
  }
}

/**
 * The 32 hex digits of every engine-drawn sid the store holds (calls, recordings, gathers,
 * notifications of every account). A seeded generator draws one stream of digits for every
 * prefix, so a run that skips these continues past everything an earlier run stored.
 */
export async function storedSidDigits(store: Store): Promise<Set<string>> {
  const digits = new Set<string>();
  const add = (sid: string) => digits.add(sid.slice(2));
  for (const { sid: accountSid } of await store.accounts.list()) {
    await eachPage((w) => store.calls.list({ accountSid, ...w }), add);
    await eachPage((w) => store.recordings.list({ accountSid, ...w }), add);
    await eachPage((w) => store.gathers.list({ accountSid, kind: 'dtmf', ...w }), add);
    await eachPage((w) => store.gathers.list({ accountSid, kind: 'speech', ...w }), add);
    await eachPage((w) => store.notifications.list({ accountSid, ...w }), add);
  }
  return digits;
}
