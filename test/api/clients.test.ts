/**
 * The Clients resource (an extension): create, list, get, update, delete; validation errors
 * naming the field; a login unique per account (409); another account's client reads as absent;
 * the password never answered.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_A, ACCOUNT_B } from '../store/fixtures.js';
import { AUTH_B, ROOT_A, setup } from './harness.js';

const ROOT_B = `/platform/2012-04-24/Accounts/${ACCOUNT_B}`;

describe('Clients', () => {
  it('creates a client in the platform style, without its password, and reads it back', async () => {
    const { json, form, store } = await setup();
    const created = await json(`${ROOT_A}/Clients.json`, form({ Login: 'alice', Password: 'alice-secret' }));
    expect(created.status).toBe(200);
    const sid = created.body.sid as string;
    expect(sid).toMatch(/^CL[0-9a-f]{32}$/);
    expect(created.body).toEqual({
      sid,
      date_created: 'Sat, 01 Jun 2024 00:00:00 +0000',
      date_updated: 'Sat, 01 Jun 2024 00:00:00 +0000',
      account_sid: ACCOUNT_A,
      api_version: '2012-04-24',
      friendly_name: 'alice',
      login: 'alice',
      status: 'active',
      voice_url: '',
      voice_method: 'POST',
      voice_fallback_url: '',
      voice_fallback_method: 'POST',
      voice_application_sid: '',
      // Where its softphone is registered (an extension): nowhere, with no SIP service.
      registered_contact: '',
      registered_source: '',
      registered_since: '',
      registration_expires: '',
      uri: `/2012-04-24/Accounts/${ACCOUNT_A}/Clients/${sid}.json`,
    });
    expect(JSON.stringify(created.body)).not.toContain('alice-secret');
    expect((await store.clients.get(ACCOUNT_A, sid))?.password).toBe('alice-secret');
    const read = await json(`${ROOT_A}/Clients/${sid}.json`);
    expect(read).toEqual({ status: 200, body: created.body });
  });

  it('answers XML without a suffix, and in the 2010-04-01 dialect a create is 201', async () => {
    const { request, form } = await setup();
    const xml = await request(`${ROOT_A}/Clients`, form({ Login: 'bob', Password: 'bob-secret' }));
    expect(xml.status).toBe(200);
    const text = await xml.text();
    expect(text).toContain('<Client><Sid>CL');
    expect(text).toContain('<Login>bob</Login>');
    expect(text).not.toContain('bob-secret');
    const twilio = await request(
      `/2010-04-01/Accounts/${ACCOUNT_A}/Clients.json`,
      form({ Login: 'carol', Password: 'carol-secret' }),
    );
    expect(twilio.status).toBe(201);
  });

  it('lists in creation order, pages, and filters by Login and FriendlyName', async () => {
    const { json, form } = await setup();
    for (const login of ['a1', 'a2', 'a3']) {
      await json(
        `${ROOT_A}/Clients.json`,
        form({ Login: login, Password: 'password1', FriendlyName: 'team' }),
      );
    }
    await json(`${ROOT_B}/Clients.json`, { ...form({ Login: 'b1', Password: 'password1' }), auth: AUTH_B });
    // Created at the same instant (a fixed clock): ties go by sid.
    const all = (await json(`${ROOT_A}/Clients.json`)).body.clients as Array<{ login: string; sid: string }>;
    expect(all.map((c) => c.sid)).toEqual(all.map((c) => c.sid).sort());
    expect(all.map((c) => c.login).sort()).toEqual(['a1', 'a2', 'a3']);
    const page = await json(`${ROOT_A}/Clients.json?PageSize=2`);
    expect(page.status).toBe(200);
    expect(page.body.clients).toEqual(all.slice(0, 2));
    expect(page.body.total).toBe(3);
    const next = await json(page.body.next_page_uri as string);
    expect(next.body.clients).toEqual(all.slice(2));
    const byLogin = await json(`${ROOT_A}/Clients.json?Login=a2`);
    expect((byLogin.body.clients as Array<{ login: string }>).map((c) => c.login)).toEqual(['a2']);
    const byName = await json(`${ROOT_A}/Clients.json?FriendlyName=team`);
    expect(byName.body.total).toBe(3);
  });

  it('updates the fields given, clears a URL given empty, and keeps the rest', async () => {
    const { json, form, store } = await setup();
    const sid = (
      await json(
        `${ROOT_A}/Clients.json`,
        form({ Login: 'alice', Password: 'alice-secret', VoiceUrl: 'http://app.test/voice' }),
      )
    ).body.sid as string;
    const updated = await json(
      `${ROOT_A}/Clients/${sid}.json`,
      form({ FriendlyName: 'Alice', Password: 'new-secret', VoiceMethod: 'get', Status: 'inactive' }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      friendly_name: 'Alice',
      login: 'alice',
      voice_url: 'http://app.test/voice',
      voice_method: 'GET',
      status: 'inactive',
    });
    expect((await store.clients.get(ACCOUNT_A, sid))?.password).toBe('new-secret');
    const cleared = await json(`${ROOT_A}/Clients/${sid}.json`, form({ VoiceUrl: '' }));
    expect(cleared.body.voice_url).toBe('');
  });

  it('refuses bad fields with 400 naming them', async () => {
    const { json, form } = await setup();
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ Password: 'password1' }, 'Login', /is required/],
      [{ Login: 'alice' }, 'Password', /is required/],
      [{ Login: 'al ice', Password: 'password1' }, 'Login', /letters, digits/],
      [{ Login: 'x'.repeat(65), Password: 'password1' }, 'Login', /1 to 64/],
      [{ Login: 'alice', Password: 'short' }, 'Password', /8 to 128 printable ASCII/],
      [{ Login: 'alice', Password: 'pass\nword1' }, 'Password', /printable ASCII/],
      [{ Login: 'alice', Password: 'password1', VoiceUrl: 'ftp://x' }, 'VoiceUrl', /http\(s\) URL/],
      [{ Login: 'alice', Password: 'password1', VoiceMethod: 'PUT' }, 'VoiceMethod', /GET or POST/],
      [{ Login: 'alice', Password: 'password1', Status: 'gone' }, 'Status', /active or inactive/],
      [
        { Login: 'alice', Password: 'password1', VoiceApplicationSid: 'AP1' },
        'VoiceApplicationSid',
        /AP and 32/,
      ],
    ];
    for (const [fields, parameter, message] of cases) {
      const res = await json(`${ROOT_A}/Clients.json`, form(fields));
      expect(res.status, parameter).toBe(400);
      // Status keeps the code the platform gives that parameter's name (21218), as on Calls.
      expect(res.body).toMatchObject({ code: parameter === 'Status' ? 21218 : 21100, parameter });
      expect(res.body.message).toMatch(message);
    }
    expect((await json(`${ROOT_A}/Clients.json`)).body.total).toBe(0);
  });

  it('refuses a login the account already has (409, 20409), on create and on update; another account may use it', async () => {
    const { json, form } = await setup();
    await json(`${ROOT_A}/Clients.json`, form({ Login: 'alice', Password: 'password1' }));
    const again = await json(`${ROOT_A}/Clients.json`, form({ Login: 'alice', Password: 'password2' }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 20409, kind: 'duplicate-login', parameter: 'Login' });
    const bob = (await json(`${ROOT_A}/Clients.json`, form({ Login: 'bob', Password: 'password1' }))).body;
    const rename = await json(`${ROOT_A}/Clients/${bob.sid}.json`, form({ Login: 'alice' }));
    expect(rename.status).toBe(409);
    expect((await json(`${ROOT_A}/Clients/${bob.sid}.json`)).body.login).toBe('bob');
    const other = await json(`${ROOT_B}/Clients.json`, {
      ...form({ Login: 'alice', Password: 'password1' }),
      auth: AUTH_B,
    });
    expect(other.status).toBe(200);
  });

  it("reads another account's client as absent (404) whatever the operation; deletes its own", async () => {
    const { json, form, request } = await setup();
    const sid = (await json(`${ROOT_A}/Clients.json`, form({ Login: 'alice', Password: 'password1' }))).body
      .sid as string;
    const absent = `CL${'0'.repeat(32)}`;
    for (const id of [sid, absent]) {
      const get = await json(`${ROOT_B}/Clients/${id}.json`, { auth: AUTH_B });
      expect(get.status).toBe(404);
      expect(get.body.message).toBe(`Client ${id} not found`);
      const update = await json(`${ROOT_B}/Clients/${id}.json`, {
        ...form({ FriendlyName: 'x' }),
        auth: AUTH_B,
      });
      expect(update.status).toBe(404);
      const del = await request(`${ROOT_B}/Clients/${id}.json`, { method: 'DELETE', auth: AUTH_B });
      expect(del.status).toBe(404);
    }
    // Another account's path with these credentials: 403, as for every resource.
    expect((await json(`${ROOT_B}/Clients.json`)).status).toBe(403);
    expect((await request(`${ROOT_A}/Clients/${sid}.json`, { method: 'DELETE' })).status).toBe(204);
    expect((await json(`${ROOT_A}/Clients/${sid}.json`)).status).toBe(404);
    expect((await request(`${ROOT_A}/Clients/${sid}.json`, { method: 'DELETE' })).status).toBe(404);
  });
});
