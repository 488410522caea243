import { describe, expect, it } from 'vitest';
import { createListCache } from '../../../src/api/http/list-cache.js';

const page = (text: string) => ({ body: new TextEncoder().encode(text), contentType: 'application/json' });
const text = (p: { body: string | Uint8Array } | undefined) =>
  p === undefined ? undefined : typeof p.body === 'string' ? p.body : new TextDecoder().decode(p.body);

describe('list cache', () => {
  it('serves a page only at the version it was rendered from', () => {
    const cache = createListCache(1000);
    cache.set('A', '/Calls.json', 1, page('one'));
    expect(text(cache.get('A', '/Calls.json', 1))).toBe('one');
    expect(cache.get('A', '/Calls.json?Page=1', 1)).toBeUndefined();
    expect(cache.get('A', '/Calls.json', 2)).toBeUndefined();
    // Once the account moved on, the old page is gone for good and its room freed.
    expect(cache.get('A', '/Calls.json', 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("retires every page of an account whose version moved, and no other account's", () => {
    const cache = createListCache(1000);
    cache.set('A', 'p1', 1, page('a1'));
    cache.set('A', 'p2', 1, page('a2'));
    cache.set('B', 'p1', 1, page('b1'));
    cache.set('A', 'p3', 2, page('a3'));
    expect(cache.get('A', 'p1', 2)).toBeUndefined();
    expect(cache.get('A', 'p2', 2)).toBeUndefined();
    expect(text(cache.get('A', 'p3', 2))).toBe('a3');
    expect(text(cache.get('B', 'p1', 1))).toBe('b1');
    expect(cache.size).toBe(4);
  });

  it('stays within its room, dropping the least recently used first', () => {
    const cache = createListCache(40);
    cache.set('A', 'p1', 1, page('x'.repeat(10)));
    cache.set('A', 'p2', 1, page('y'.repeat(10)));
    cache.set('A', 'p3', 1, page('z'.repeat(10)));
    cache.get('A', 'p1', 1);
    cache.set('A', 'p4', 1, page('w'.repeat(10)));
    cache.set('A', 'p5', 1, page('v'.repeat(10)));
    expect(cache.size).toBeLessThanOrEqual(40);
    expect(cache.get('A', 'p2', 1)).toBeUndefined();
    expect(text(cache.get('A', 'p1', 1))).toBe('x'.repeat(10));
    expect(text(cache.get('A', 'p5', 1))).toBe('v'.repeat(10));
    // A page over a quarter of the room is not kept; nor is anything when the room is 0.
    cache.set('A', 'big', 1, page('b'.repeat(11)));
    expect(cache.get('A', 'big', 1)).toBeUndefined();
    const none = createListCache(0);
    none.set('A', 'p', 1, page('x'));
    expect(none.get('A', 'p', 1)).toBeUndefined();
  });

  it('replaces a page set again under the same key', () => {
    const cache = createListCache(100);
    cache.set('A', 'p', 1, page('old'));
    cache.set('A', 'p', 1, page('new'));
    expect(text(cache.get('A', 'p', 1))).toBe('new');
    expect(cache.size).toBe(3);
  });
});
