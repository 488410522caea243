import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODE_OF_KIND } from '../../src/api/http/errors.js';
import { fieldsOf } from '../../src/api/http/params.js';
import { parseCreateCall } from '../../src/api/platform/call-params.js';
import { ACCOUNT_B } from '../store/fixtures.js';
import { AUTH_B, ROOT_A, setup } from './harness.js';

const ROOT_B = `/platform/2012-04-24/Accounts/${ACCOUNT_B}`;

describe('error bodies in the platform shape', () => {
  it('answers a numeric code, message, more_info and status, with parameter and kind as extras', async () => {
    const { json, form } = await setup();
    const res = await json(
      `${ROOT_A}/Calls.json`,
      form({ From: '+1', To: 'not a number', Url: 'http://x/' }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 21211,
      message: expect.stringContaining('To'),
      more_info: 'docs/errors.md#21211',
      status: 400,
      parameter: 'To',
      kind: 'invalid-parameter',
    });
    const missing = await json(`${ROOT_A}/Calls.json`, form({ To: '+2', Url: 'http://x/' }));
    expect(missing.body).toMatchObject({ code: 21213, parameter: 'From' });
    const unknown = await json(`${ROOT_A}/Calls/CA${'0'.repeat(32)}.json`);
    expect(unknown.body).toMatchObject({ code: 20404, status: 404, more_info: 'docs/errors.md#20404' });
  });

  it('quotes the To received and hints at %2B when a form body sent its + unencoded', async () => {
    const { json, form: setupForm } = await setup();
    const res = await json(`${ROOT_A}/Calls.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B15550100&To=+15552222&Url=http%3A%2F%2Fx%2F',
    });
    expect(res.body).toMatchObject({ code: 21211, parameter: 'To' });
    const message = (res.body as { message: string }).message;
    expect(message).toContain('received " 15552222"');
    expect(message).toContain('send %2B (curl --data-urlencode)');
    const other = await json(`${ROOT_A}/Calls.json`, setupForm({ From: '+1', To: 'nope', Url: 'http://x/' }));
    expect((other.body as { message: string }).message).toMatch(/received "nope"$/);
  });

  it('answers XML on .xml paths', async () => {
    const { request } = await setup();
    const res = await request(`${ROOT_A}/Calls/CA${'0'.repeat(32)}.xml`);
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toContain('application/xml');
    const text = await res.text();
    expect(text).toContain('<RestcommResponse><RestException><Code>20404</Code><Message>');
    expect(text).toContain('<MoreInfo>docs/errors.md#20404</MoreInfo><Status>404</Status></RestException>');
    const bad = await (await request(`${ROOT_A}/Calls.xml?Status=nope`)).text();
    expect(bad).toContain('<Code>21218</Code>');
    expect(bad).toContain('<Parameter>Status</Parameter>');
  });

  it('documents every code in docs/errors.md', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const codes = new Set([
      ...Object.values(CODE_OF_KIND),
      21201,
      21205,
      21206,
      21211,
      21212,
      21213,
      21218,
      21609,
    ]);
    for (const code of codes) expect(doc).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });
});

describe('405 and 403', () => {
  it('answers 405 with Allow for a known path and an unsupported method', async () => {
    const { request } = await setup();
    const res = await request(`${ROOT_A}/Calls.json`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD, POST');
    expect(await res.json()).toMatchObject({ code: 20004, status: 405 });
    const one = await request(`${ROOT_A}/Recordings/RE${'0'.repeat(32)}.json`, { method: 'PUT' });
    expect(one.status).toBe(405);
    expect(one.headers.get('Allow')).toBe('DELETE, GET, HEAD');
    expect((await request(`${ROOT_A}/Nothing.json`, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers 403 to valid credentials on another account path', async () => {
    const { json } = await setup();
    const res = await json(`${ROOT_B}/Calls.json`);
    expect(res).toMatchObject({ status: 403, body: { code: 20403, kind: 'forbidden' } });
    expect((await json(`${ROOT_B}/Calls.json`, { auth: AUTH_B })).status).toBe(200);
  });
});

describe('repeated form fields', () => {
  it('keeps every value of a repeated parameter', () => {
    const fields = fieldsOf(
      new URLSearchParams(
        'From=%2B1&To=%2B2&Url=http://x/&StatusCallback=http://x/s&StatusCallbackEvent=initiated&StatusCallbackEvent=completed',
      ),
    );
    expect(parseCreateCall(fields).statusCallbackEvents).toEqual(['initiated', 'completed']);
    const spaced = { ...fields, StatusCallbackEvent: 'ringing answered' };
    expect(parseCreateCall(spaced).statusCallbackEvents).toEqual(['ringing', 'answered']);
  });

  it('reads repeated fields over HTTP; a single-valued one given twice is a 400 naming it', async () => {
    const { json } = await setup();
    const post = (body: string) =>
      json(`${ROOT_A}/Calls.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
    const ok = await post(
      'From=%2B1&To=%2B2&Url=http://x/&StatusCallbackEvent=initiated&StatusCallbackEvent=completed',
    );
    // Validation passed: only the missing engine stops it.
    expect(ok.status).toBe(501);
    const bad = await post(
      'From=%2B1&To=%2B2&Url=http://x/&StatusCallbackEvent=initiated&StatusCallbackEvent=nope',
    );
    expect(bad.body).toMatchObject({ status: 400, parameter: 'StatusCallbackEvent' });
    const twice = await post('From=%2B1&To=%2B2&Url=http://x/&Url=http://y/');
    expect(twice.body).toMatchObject({ status: 400, parameter: 'Url', code: 21205 });
  });
});

describe('PageSize', () => {
  it('clamps PageSize above the maximum to 1000', async () => {
    const { json } = await setup();
    const res = await json(`${ROOT_A}/Calls.json?PageSize=5000`);
    expect(res.status).toBe(200);
    expect(res.body.page_size).toBe(1000);
    expect(res.body.first_page_uri).toContain('PageSize=1000');
  });
});
