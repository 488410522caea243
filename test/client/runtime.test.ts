/** The client's runtime without a server: options, the wire form of parameters, paging, errors. */
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../src/client/schema.js';
import { wirePairs } from '../../src/client/wire.js';
import { type Call, createClient, RcmlApiError, type RcmlClient } from '../../src/client.js';

const OPTIONS = { accountSid: 'AC1', authToken: 'tok', baseUrl: 'http://api.test/rcml' };

/** A fetch answering from a list of answers, keeping every request it was given. */
function scripted(answers: Array<() => Response>) {
  const requests: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });

describe('client options', () => {
  it('refuses a missing or malformed option with a TypeError naming it', () => {
    expect(() => createClient({ ...OPTIONS, accountSid: '' })).toThrow(/^accountSid:/);
    expect(() => createClient({ ...OPTIONS, authToken: undefined as unknown as string })).toThrow(
      /^authToken:/,
    );
    expect(() => createClient({ ...OPTIONS, baseUrl: '127.0.0.1:8080' })).toThrow(/^baseUrl:/);
    expect(() => createClient({ ...OPTIONS, baseUrl: 'ftp://api.test' })).toThrow(/^baseUrl:/);
    expect(() => createClient({ ...OPTIONS, baseUrl: 'http://api.test/?x=1' })).toThrow(/^baseUrl:/);
    expect(() => createClient({ ...OPTIONS, apiRoot: 'v1' })).toThrow(/^apiRoot:/);
  });

  it('sends Basic credentials of UTF-8 text, under {base_url}/platform/2012-04-24 by default', async () => {
    const { fetch, requests } = scripted([json({ sid: 'AC1' }), json({ sid: 'AC1' })]);
    const client = createClient({ ...OPTIONS, authToken: 'tök', baseUrl: 'http://api.test/rcml/', fetch });
    expect(client.apiRoot).toBe('http://api.test/rcml/platform/2012-04-24');
    await client.accounts.get();
    expect(requests[0].url).toBe('http://api.test/rcml/platform/2012-04-24/Accounts/AC1.json');
    expect(requests[0].headers.get('Authorization')).toBe(
      `Basic ${Buffer.from('AC1:tök').toString('base64')}`,
    );
    const other = createClient({ ...OPTIONS, apiRoot: 'http://api.test/rcml/2012-04-24', fetch });
    await other.accounts.get();
    expect(requests[1].url).toBe('http://api.test/rcml/2012-04-24/Accounts/AC1.json');
  });
});

describe('parameters on the wire', () => {
  it('sends camelCase parameters under their API names, a list as the field repeated', async () => {
    const { fetch, requests } = scripted([json({ sid: 'CA1' })]);
    await createClient({ ...OPTIONS, fetch }).calls.create({
      from: '+15550001',
      to: '+15550002',
      url: 'http://app.test/a b',
      statusCallbackEvent: ['initiated', 'completed'],
      timeout: 30,
      sipHeaders: { 'X-Trace': 'abc' },
    });
    const request = requests[0];
    expect(request.method).toBe('POST');
    expect(request.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect([...new URLSearchParams(await request.text())]).toEqual([
      ['From', '+15550001'],
      ['To', '+15550002'],
      ['Url', 'http://app.test/a b'],
      ['StatusCallbackEvent', 'initiated'],
      ['StatusCallbackEvent', 'completed'],
      ['Timeout', '30'],
      ['X-Trace', 'abc'],
    ]);
  });

  it('refuses a SIP header not named X-..., and a number that is not finite', async () => {
    const client = createClient(OPTIONS);
    await expect(
      client.calls.create({ from: '1', to: '2', url: 'http://a.test', sipHeaders: { Trace: 'x' } }),
    ).rejects.toThrow(/sipHeaders.Trace/);
    expect(() => wirePairs({ timeout: Number.NaN })).toThrow(/timeout/);
    await expect(client.sim.advance(-1)).rejects.toThrow(RangeError);
    expect(() => client.calls.get('')).toThrow(/sid/);
  });

  it('decodes to the same values: every value in order, nothing for undefined or null', () => {
    const name = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/);
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean());
    const value = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }),
      fc.constant(undefined),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.dictionary(name, value), (params) => {
        const decoded = new URLSearchParams(new URLSearchParams(wirePairs(params)).toString());
        for (const [k, v] of Object.entries(params)) {
          const wire = k.charAt(0).toUpperCase() + k.slice(1);
          const expected = v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).map(String);
          expect(decoded.getAll(wire)).toEqual(expected);
        }
      }),
    );
  });
});

describe('paging', () => {
  const page = (sids: string[], next: string | null) =>
    json({ calls: sids.map((sid) => ({ sid })), next_page_uri: next });

  it('follows next_page_uri from the origin until the string "null", JSON null or an empty page', async () => {
    for (const end of ['null', null]) {
      const { fetch, requests } = scripted([
        page(
          ['CA1', 'CA2'],
          '/rcml/platform/2012-04-24/Accounts/AC1/Calls.json?To=%2B1&Page=1&PageSize=2&AfterSid=CA2',
        ),
        page(['CA3'], end),
      ]);
      const sids = (
        await createClient({ ...OPTIONS, fetch })
          .calls.list({ to: '+1', pageSize: 2 })
          .toArray()
      ).map((c) => c.sid);
      expect(sids).toEqual(['CA1', 'CA2', 'CA3']);
      expect(requests.map((r) => r.url)).toEqual([
        'http://api.test/rcml/platform/2012-04-24/Accounts/AC1/Calls.json?To=%2B1&PageSize=2',
        'http://api.test/rcml/platform/2012-04-24/Accounts/AC1/Calls.json?To=%2B1&Page=1&PageSize=2&AfterSid=CA2',
      ]);
    }
    const { fetch, requests } = scripted([page([], '/next')]);
    expect(
      await createClient({ ...OPTIONS, fetch })
        .calls.list()
        .toArray(),
    ).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('stops once limit records were given, asking a page of that size and the API Limit', async () => {
    const { fetch, requests } = scripted([page(['CA1', 'CA2', 'CA3'], '/more')]);
    const list = createClient({ ...OPTIONS, fetch }).calls.list({ limit: 2 });
    expect((await list.toArray()).map((c) => c.sid)).toEqual(['CA1', 'CA2']);
    expect(new URL(requests[0].url).search).toBe('?PageSize=2&Limit=2');
    expect(() => createClient(OPTIONS).calls.list({ limit: 1.5 })).toThrow(/^limit:/);
    expect(() => createClient(OPTIONS).calls.list({ pageSize: 1001 })).toThrow(/^pageSize:/);
  });

  it('iterates lazily: nothing is fetched until the first record is asked for', async () => {
    const { fetch, requests } = scripted([page(['CA1'], 'null')]);
    const list = createClient({ ...OPTIONS, fetch }).calls.list();
    expect(requests).toHaveLength(0);
    for await (const call of list) expect(call.sid).toBe('CA1');
    expect(requests).toHaveLength(1);
  });
});

describe('errors', () => {
  it('carry the API error body, and Retry-After', async () => {
    const body = {
      code: 20429,
      message: 'slow down',
      more_info: 'docs/errors.md#20429',
      status: 429,
      kind: 'too-many-requests',
    };
    const { fetch } = scripted([json(body, 429, { 'Retry-After': '3' })]);
    const err = await createClient({ ...OPTIONS, fetch })
      .calls.get('CA1')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(RcmlApiError);
    expect(err).toMatchObject({
      name: 'RcmlApiError',
      status: 429,
      code: 20429,
      message: 'slow down',
      moreInfo: 'docs/errors.md#20429',
      kind: 'too-many-requests',
      parameter: undefined,
      retryAfter: 3,
      request: { method: 'GET', url: 'http://api.test/rcml/platform/2012-04-24/Accounts/AC1/Calls/CA1.json' },
    });
  });

  it('of another body keep the status, no code, and the start of the body in the message', async () => {
    const { fetch } = scripted([() => new Response('<html>Bad Gateway</html>', { status: 502 })]);
    const err = (await createClient({ ...OPTIONS, fetch })
      .notifications.get('NO1')
      .catch((e: unknown) => e)) as RcmlApiError;
    expect([err.status, err.code, err.moreInfo]).toEqual([502, undefined, '']);
    expect(err.message).toContain('answered 502: <html>Bad Gateway</html>');
  });

  it('fetches a record once however often it is awaited, and not at all for its audio', async () => {
    const wav = new Uint8Array([82, 73, 70, 70]);
    const { fetch, requests } = scripted([() => new Response(wav), json({ sid: 'RE1' })]);
    const recording = createClient({ ...OPTIONS, fetch }).recordings.get('RE1');
    expect(await recording.wav()).toEqual(wav);
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/rcml/platform/2012-04-24/Accounts/AC1/Recordings/RE1.wav',
    ]);
    expect(await recording).toEqual({ sid: 'RE1' });
    expect(await recording).toEqual({ sid: 'RE1' });
    expect(requests).toHaveLength(2);
  });
});

describe('types', () => {
  it('come from the generated schema, and refuse what the API refuses', () => {
    expectTypeOf<Call>().toEqualTypeOf<components['schemas']['Call']>();
    expectTypeOf<Awaited<ReturnType<RcmlClient['sim']['advance']>>>().toEqualTypeOf<
      components['schemas']['SimClock']
    >();
    // Checked by the typecheck, never run.
    const typed = (client: RcmlClient) => {
      // @ts-expect-error: Url is required.
      client.calls.create({ from: '+1', to: '+2' });
      // @ts-expect-error: not a call status.
      client.calls.list({ status: 'done' });
      // @ts-expect-error: Log is 0 or 1.
      client.notifications.list({ log: 2 });
      // @ts-expect-error: not an event.
      client.calls.create({ from: '+1', to: '+2', url: 'http://a.test', statusCallbackEvent: ['hungup'] });
      client.conferences.get('CF1').participants.list({ muted: true, hold: 'false' });
      client.calls.update('CA1', { status: 'completed', childCallMode: 'Move', mute: false });
    };
    expect(typeof typed).toBe('function');
  });
});
