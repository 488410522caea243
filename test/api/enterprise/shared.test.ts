import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTERPRISE_ERRORS } from '../../../src/api/enterprise/codes.js';
import { isoSeconds } from '../../../src/api/enterprise/timestamps.js';
import { AUTH_B, setupEnterprise, T0 } from './harness.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

describe('enterprise timestamps', () => {
  it('are YYYY-MM-DDTHH:MM:SS+0000 in UTC, whole seconds', () => {
    expect(isoSeconds(Date.UTC(2024, 2, 5, 7, 8, 9, 999))).toBe('2024-03-05T07:08:09+0000');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        const s = isoSeconds(ms);
        expect(s).toMatch(ISO);
        expect(Date.parse(s.replace('+0000', 'Z'))).toBe(Math.floor(ms / 1000) * 1000);
      }),
    );
  });
});

describe('error codes table', () => {
  it('holds every code of SPEC for these areas, 520 twice', () => {
    const codes = Object.values(ENTERPRISE_ERRORS).map((e) => e.code);
    expect(codes.sort()).toEqual(
      [
        '467',
        '484',
        '487',
        '490',
        '499',
        '500',
        '504',
        '505',
        '510',
        '519',
        '520',
        '520',
        '521',
        '522',
        '526',
        '540',
        '546',
      ].sort(),
    );
    expect(ENTERPRISE_ERRORS.announcementType.message).toBe('Announcement Type Not Found');
    expect(ENTERPRISE_ERRORS.workspaceNotFound.message).toBe('Sid of passed workspace is not found');
  });
});

describe('/enterprises extension', () => {
  it('creates, gets, searches and updates an enterprise in the success envelope', async () => {
    const { send } = await setupEnterprise();
    const created = await send('POST', '/enterprises', { name: 'Acme', accountEmail: 'admin@acme.test' });
    expect(created.status).toBe(200);
    const sid = created.body.data.sid;
    expect(sid).toMatch(/^EN[0-9a-f]{32}$/);
    expect(created.body).toEqual({
      code: 200,
      message: 'OK',
      data: {
        sid,
        name: 'Acme',
        accountEmail: 'admin@acme.test',
        autoAttendant: true,
        dateCreated: '2024-03-05T12:00:00+0000',
        dateUpdated: '2024-03-05T12:00:00+0000',
        uri: `/enterprises/search/${sid}`,
      },
    });
    expect((await send('GET', `/enterprises/search/${sid}`)).body.data).toEqual(created.body.data);
    const updated = await send('PUT', `/enterprises/${sid}`, { autoAttendant: false, name: 'Acme 2' });
    expect(updated.body.data).toMatchObject({ name: 'Acme 2', autoAttendant: false });
    const list = await send('GET', '/enterprises/search?name=acme');
    expect(list.body.data.total).toBe(1);
  });

  it('answers 467 for an unknown enterprise and for one of another account', async () => {
    const { send, enterprise } = await setupEnterprise();
    const sid = await enterprise();
    const unknown = await send('GET', `/enterprises/search/EN${'9'.repeat(32)}`);
    const other = await send('GET', `/enterprises/search/${sid}`, undefined, { auth: AUTH_B });
    expect(unknown).toEqual({
      status: 409,
      body: { errorCode: '467', message: 'Enterprise not found', data: { sid: `EN${'9'.repeat(32)}` } },
    });
    expect(other.status).toBe(409);
    expect(other.body.errorCode).toBe('467');
    expect((await send('GET', '/enterprises/search', undefined, { auth: AUTH_B })).body.data.total).toBe(0);
    expect((await send('PUT', `/enterprises/${sid}`, { name: 'x' }, { auth: AUTH_B })).body.errorCode).toBe(
      '467',
    );
  });

  it('refuses bad input with 400 naming the field and echoing the body', async () => {
    const { send } = await setupEnterprise();
    const r = await send('POST', '/enterprises', { accountEmail: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      errorCode: 'invalid-parameter',
      message: 'name: is required',
      data: { accountEmail: 'nope' },
    });
    const bad = await send('POST', '/enterprises', undefined, {
      raw: '{"name":',
      contentType: 'application/json',
    });
    expect(bad.body).toEqual({
      errorCode: 'invalid-parameter',
      message: 'body: request body is not valid JSON',
      data: null,
    });
  });

  it('needs Basic credentials on every area and answers unknown paths in the area shape', async () => {
    const { send } = await setupEnterprise();
    for (const path of [
      '/enterprises/search',
      '/autoattendant/user/search',
      '/autoattendant/announcement/search',
    ]) {
      expect((await send('GET', path, undefined, { auth: null })).status).toBe(401);
    }
    const missing = await send('GET', '/autoattendant/nothing');
    expect(missing).toEqual({
      status: 404,
      body: { errorCode: 'not-found', message: 'no resource at GET /autoattendant/nothing', data: null },
    });
  });
});

describe('search envelope and parameters', () => {
  it('pages with defaults 0/10, counts and links exactly', async () => {
    const { send, clock } = await setupEnterprise();
    for (let i = 0; i < 23; i++) {
      clock.now = T0 + i * 1000;
      await send('POST', '/enterprises', { name: `E${String(i).padStart(2, '0')}` });
    }
    const first = await send('GET', '/enterprises/search');
    expect(first.body.code).toBe(200);
    expect(first.body.message).toBe('OK');
    const { result, ...rest } = first.body.data;
    expect(result.map((e: { name: string }) => e.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `E${String(i).padStart(2, '0')}`),
    );
    expect(rest).toEqual({
      pageSize: 10,
      total: 23,
      page: 0,
      numPages: 3,
      start: 0,
      end: 9,
      uri: '/enterprises/search?page=0&pageSize=10',
      firstPageUri: '/enterprises/search?page=0&pageSize=10',
      nextPageUri: '/enterprises/search?page=1&pageSize=10',
    });
    const last = await send('GET', '/enterprises/search?name=e&page=2&pageSize=10');
    expect(last.body.data).toMatchObject({
      page: 2,
      start: 20,
      end: 22,
      uri: '/enterprises/search?name=e&page=2&pageSize=10',
      firstPageUri: '/enterprises/search?name=e&page=0&pageSize=10',
      nextPageUri: null,
    });
    expect(last.body.data.result).toHaveLength(3);
    const past = await send('GET', '/enterprises/search?page=9');
    expect(past.body.data).toMatchObject({ result: [], start: 90, end: 90, total: 23, nextPageUri: null });
    const sorted = await send('GET', '/enterprises/search?SortBy=name:desc&pageSize=2');
    expect(sorted.body.data.result.map((e: { name: string }) => e.name)).toEqual(['E22', 'E21']);
  });

  it('reads startTime/endTime as inclusive UTC bounds on creation time', async () => {
    const { send, clock } = await setupEnterprise();
    const days = [
      Date.UTC(2024, 2, 4, 23, 59, 59),
      Date.UTC(2024, 2, 5, 0, 0, 0),
      Date.UTC(2024, 2, 5, 10, 0, 0, 500),
    ];
    for (const [i, t] of days.entries()) {
      clock.now = t;
      await send('POST', '/enterprises', { name: `E${i}` });
    }
    const names = async (q: string) =>
      (await send('GET', `/enterprises/search?${q}`)).body.data.result.map((e: { name: string }) => e.name);
    expect(await names('startTime=2024-03-05')).toEqual(['E1', 'E2']);
    expect(await names('endTime=2024-03-05')).toEqual(['E0', 'E1']);
    expect(await names('startTime=2024-03-05T10:00:00&endTime=2024-03-05T10:00:00')).toEqual(['E2']);
    expect(await names('endTime=2024-03-04T23:59:59')).toEqual(['E0']);
  });

  it('refuses bad paging, dates and sorts with 400 naming the parameter', async () => {
    const { send } = await setupEnterprise();
    for (const [q, parameter] of [
      ['page=-1', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=1001', 'pageSize'],
      ['startTime=2024-02-30', 'startTime'],
      ['endTime=yesterday', 'endTime'],
      ['SortBy=email:asc', 'SortBy'],
      ['sortBy=name:up', 'sortBy'],
    ]) {
      const r = await send('GET', `/enterprises/search?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errorCode).toBe('invalid-parameter');
      expect(r.body.message.startsWith(`${parameter}: `), r.body.message).toBe(true);
      expect(r.body.data.parameter).toBe(parameter);
    }
  });
});
