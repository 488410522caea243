import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBasic, tokenMatches } from '../../../src/api/http/auth.js';
import { iso8601, parseDateFilter, rfc2822 } from '../../../src/api/http/dates.js';
import { ApiError } from '../../../src/api/http/errors.js';
import { listDocument, windowOf } from '../../../src/api/http/paging.js';
import { account } from '../../store/fixtures.js';

const runs = process.env.RCML_DEEP ? 2000 : 200;

describe('dates', () => {
  it('formats RFC 2822 and ISO 8601 in UTC', () => {
    expect(rfc2822(Date.UTC(2024, 2, 5, 9, 4, 3))).toBe('Tue, 05 Mar 2024 09:04:03 +0000');
    expect(iso8601(Date.UTC(2024, 2, 5, 9, 4, 3, 7))).toBe('2024-03-05T09:04:03.007Z');
  });

  it('parses every valid date and date-time to the span it names (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (d) => {
          const second = Math.floor(d.getTime() / 1000) * 1000;
          const text = new Date(second).toISOString().slice(0, 19);
          expect(parseDateFilter('X', text)).toEqual({ first: second, last: second + 999 });
          const day = parseDateFilter('X', text.slice(0, 10));
          expect(day.last - day.first).toBe(86_399_999);
          expect(second).toBeGreaterThanOrEqual(day.first);
          expect(second).toBeLessThanOrEqual(day.last);
          // Bounds of Calls and Recordings read a date alone as its midnight.
          expect(parseDateFilter('X', text.slice(0, 10), 'midnight')).toEqual({
            first: day.first,
            last: day.first + 999,
          });
        },
      ),
      { numRuns: runs },
    );
  });

  it('refuses anything else with a 400 naming the parameter (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 25 }), (s) => {
        fc.pre(!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/.test(s));
        try {
          parseDateFilter('StartTime', s);
          expect.unreachable();
        } catch (err) {
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).status).toBe(400);
          expect((err as ApiError).parameter).toBe('StartTime');
        }
      }),
      { numRuns: runs },
    );
    for (const bad of ['2023-02-29', '2024-04-31', '2024-01-01T24:00:00', '2024-01-01T10:60:00']) {
      expect(() => parseDateFilter('EndTime', bad)).toThrow(/EndTime/);
    }
  });
});

describe('paging envelope', () => {
  it('keeps counts, positions and links consistent (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 0, max: 30 }),
        (matched, pageSize, limit, page) => {
          const w = windowOf({ page, pageSize, limit });
          const total = Math.min(matched, limit);
          const count = Math.max(0, Math.min(w.limit, total - w.offset));
          const items = Array.from({ length: count }, () => [['Sid', 'sid', 'x']] as const);
          const doc = listDocument({
            path: '/p',
            query: { To: '+1', Page: String(page), AfterSid: 'CAold' },
            paging: { page, pageSize, limit },
            matched,
            items,
            lastSid: count > 0 ? 'CAlast' : undefined,
            names: { json: 'calls', xmlList: 'Calls', xmlItem: 'Call' },
            withLimit: true,
          });
          const env = Object.fromEntries(doc.envelope.map(([k, , v]) => [k, v]));
          expect(env.total).toBe(total);
          expect(env.num_pages).toBe(Math.ceil(total / pageSize));
          expect(count).toBeLessThanOrEqual(pageSize);
          const hasNext = page < (env.num_pages as number) - 1;
          expect(env.next_page_uri === 'null').toBe(!hasNext);
          if (hasNext) expect(env.next_page_uri).toContain('AfterSid=CAlast');
          expect(env.previous_page_uri === 'null').toBe(page === 0);
          expect(env.first_page_uri).toBe(`/p?To=%2B1&Page=0&PageSize=${pageSize}`);
          expect(String(env.uri)).not.toContain('CAold');
        },
      ),
      { numRuns: runs },
    );
  });
});

describe('basic auth', () => {
  it('parses credentials and compares tokens', () => {
    const header = `Basic ${Buffer.from('ACx:to:ken').toString('base64')}`;
    expect(parseBasic(header)).toEqual({ user: 'ACx', password: 'to:ken' });
    expect(parseBasic('Basic')).toBeUndefined();
    expect(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
    const a = account('ACx', 'secret');
    expect(tokenMatches(a, 'secret')).toBe(true);
    expect(tokenMatches(a, 'secret2')).toBe(false);
    expect(tokenMatches(undefined, 'secret')).toBe(false);
  });
});
