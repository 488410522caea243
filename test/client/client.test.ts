import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RcmlApiError as ApiErrorType, createClient, RcmlApiError } from '../../src/client.js';
import { ACCOUNT_SID, type ClientWorld, startClientWorld } from './serve.js';

let world: ClientWorld;
beforeAll(async () => {
  world = await startClientWorld();
});
afterAll(() => world?.close());

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(p: PromiseLike<unknown>): Promise<ApiErrorType> {
  const outcome = await Promise.resolve(p).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(RcmlApiError);
  return outcome.error as ApiErrorType;
}

describe('rcml-engine/client against rcml serve', () => {
  it('reads the account, and maps refusals to RcmlApiError with the API code, status and message', async () => {
    const { client } = world;
    const account = await client.accounts.get();
    expect(account).toMatchObject({ sid: ACCOUNT_SID, status: 'active' });

    const wrong = createClient({ accountSid: ACCOUNT_SID, authToken: 'not-the-token', baseUrl: world.url });
    const unauthorized = await failure(wrong.accounts.get());
    expect([unauthorized.status, unauthorized.code]).toEqual([401, 20003]);

    const other = await failure(client.accounts.get(`AC${'0'.repeat(32)}`));
    expect([other.status, other.code, other.kind]).toEqual([403, 20403, 'forbidden']);

    const badTo = await failure(
      client.calls.create({ from: '+15550001', to: 'not a number', url: world.app }),
    );
    expect(badTo).toMatchObject({
      status: 400,
      code: 21211,
      parameter: 'To',
      moreInfo: 'docs/errors.md#21211',
    });
    expect(badTo.message).toContain('To:');
    expect(badTo.request.method).toBe('POST');

    const noUrl = await failure(client.calls.create({ from: '+15550001', to: '+15550002', url: '' }));
    expect([noUrl.code, noUrl.parameter]).toEqual([21205, 'Url']);

    const unknown = await failure(client.calls.get('CA0123'));
    expect([unknown.status, unknown.code, unknown.message]).toEqual([404, 20404, 'Call CA0123 not found']);
  });

  it('creates calls and lists them page by page, with filters, pageSize and limit', async () => {
    const { client } = world;
    const to = '+15551000';
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await client.calls.create({ from: `+1555200${i}`, to, url: `${world.app}/hold` }));
    }
    expect(created.map((c) => c.status)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);

    const pages = [];
    for await (const page of client.calls.list({ to, pageSize: 2 }).pages()) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.envelope.page_size)).toEqual([2, 2, 2]);
    expect(pages.at(-1)?.envelope.next_page_uri).toBe('null');

    const listed = [];
    for await (const call of client.calls.list({ to, pageSize: 2 })) listed.push(call.sid);
    expect([...listed].sort()).toEqual(created.map((c) => c.sid).sort());

    const limited = client.calls.list({ to, limit: 3 });
    const firstPages = [];
    for await (const page of limited.pages()) firstPages.push(page.envelope);
    expect(firstPages.map((e) => [e.page_size, e.total, e.limit])).toEqual([[3, 3, 3]]);
    expect(await client.calls.list({ to, pageSize: 2, limit: 3 }).toArray()).toHaveLength(3);

    // Another filter: only the call from +15552003.
    const one = await client.calls.list({ to, from: '+15552003' }).toArray();
    expect(one.map((c) => c.sid)).toEqual([created[3].sid]);
    expect(() => client.calls.list({ pageSize: 0 })).toThrow(/pageSize/);

    for (const call of created) await client.calls.update(call.sid, { status: 'canceled' });
  });

  it('modifies a live call, and refuses to modify it once it has ended', async () => {
    const { client } = world;
    const call = await client.calls.create({
      from: '+15550001',
      to: '+15551001',
      url: `${world.app}/hold`,
      statusCallback: `${world.app}/status`,
      statusCallbackEvent: ['initiated', 'completed'],
    });
    await client.sim.advance(2);
    const handle = client.calls.get(call.sid);
    expect((await handle).status).toBe('in-progress');
    const ended = await handle.update({ status: 'completed' });
    expect([ended.status, ended.ended_by]).toEqual(['completed', 'api']);
    const again = await failure(client.calls.update(call.sid, { status: 'completed' }));
    expect([again.status, again.code, again.kind]).toEqual([409, 21220, 'not-live']);
    await client.sim.advance(1);
    // Both events given as repeated fields were subscribed to.
    const callbacks = world.requests.filter(
      (r) => r.path === '/status' && r.fields.get('CallSid') === call.sid,
    );
    expect(callbacks.map((r) => r.fields.get('CallStatus'))).toEqual(['queued', 'completed']);
  });

  it('reads a recording and downloads its WAV, lists it by call, and deletes it', async () => {
    const { client } = world;
    const call = await client.calls.create({
      from: '+15550001',
      to: '+15551002',
      url: `${world.app}/record`,
    });
    await client.sim.advance(30);
    expect((await client.calls.get(call.sid)).status).toBe('completed');
    const [listed] = await client.recordings.list({ callSid: call.sid }).toArray();
    expect(listed.call_sid).toBe(call.sid);
    expect((await client.calls.get(call.sid).recordings().toArray()).map((r) => r.sid)).toEqual([listed.sid]);

    const recording = client.recordings.get(listed.sid);
    expect(await recording).toEqual(listed);
    const wav = await recording.wav();
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(wav.subarray(8, 12))).toBe('WAVE');
    // 8 kHz mono 16-bit: the header and 2 bytes per sample of the recording's duration.
    expect(wav.length).toBe(44 + Number(listed.duration) * 16_000);

    await recording.delete();
    const gone = await failure(client.recordings.get(listed.sid));
    expect([gone.status, gone.code]).toEqual([404, 20404]);
    expect((await failure(client.recordings.get(listed.sid).wav())).status).toBe(404);
  });

  it('drives an inbound call through /sim: number, keys, gather record', async () => {
    const { client } = world;
    const route = await client.sim.numbers.set({ number: '+15550100', voiceUrl: `${world.app}/gather` });
    expect(route).toEqual({ number: '+15550100', voice_url: `${world.app}/gather`, voice_method: 'POST' });
    await client.sim.parties.set({ address: '+15553333', answerAfter: 0 });
    const call = await client.sim.calls.create({ from: '+15553333', to: '+15550100' });
    expect(call.direction).toBe('inbound');
    await client.sim.advance(1);
    expect(await client.sim.calls.digits(call.sid, '7')).toEqual({ call_sid: call.sid, digits: '7' });
    await client.sim.advance(10);
    expect((await client.calls.get(call.sid)).status).toBe('completed');
    expect(
      world.requests
        .find((r) => r.path === '/done' && r.fields.get('CallSid') === call.sid)
        ?.fields.get('Digits'),
    ).toBe('7');

    const [gather] = await client.gathers.dtmf.list({ callSid: call.sid }).toArray();
    expect(gather).toMatchObject({ call_sid: call.sid, digits_count: 1 });
    expect(await client.gathers.dtmf.get(gather.sid)).toEqual(gather);
    expect(await client.gathers.speech.list({ callSid: call.sid }).toArray()).toEqual([]);

    const ended = await failure(client.sim.calls.digits(call.sid, '1'));
    expect([ended.status, ended.code]).toEqual([409, 21220]);
    const badKeys = await failure(client.sim.calls.digits(call.sid, 'x'));
    expect([badKeys.status, badKeys.parameter]).toEqual([400, 'Digits']);
  });

  it('lists a failed document fetch among the notifications, for the account and for the call', async () => {
    const { client } = world;
    const call = await client.calls.create({
      from: '+15550001',
      to: '+15551003',
      url: `${world.app}/missing`,
    });
    await client.sim.advance(5);
    const [note] = await client.notifications.list({ callSid: call.sid }).toArray();
    expect(note).toMatchObject({ call_sid: call.sid, log: 1, request_url: `${world.app}/missing` });
    expect(await client.calls.get(call.sid).notifications().toArray()).toEqual([note]);
    expect(await client.notifications.get(note.sid)).toEqual(note);
    expect(await client.notifications.list({ callSid: call.sid, log: 0 }).toArray()).toEqual([]);
  });

  it('lists conference rooms and their participants, and mutes one', async () => {
    const { client } = world;
    await client.sim.numbers.set({ number: '+15550200', voiceUrl: `${world.app}/conference` });
    const a = await client.sim.calls.create({ from: '+15554001', to: '+15550200' });
    const b = await client.sim.calls.create({ from: '+15554002', to: '+15550200' });
    await client.sim.advance(2);
    const [room] = await client.conferences.list({ friendlyName: 'room', status: 'in-progress' }).toArray();
    const conference = client.conferences.get(room.sid);
    expect(await conference).toEqual(room);
    const participants = await conference.participants.list().toArray();
    expect(participants.map((p) => p.call_sid)).toEqual([a.sid, b.sid]);
    const muted = await conference.participants.update(b.sid, { mute: true });
    expect(muted.sid).toBe(b.sid);
    expect((await conference.participants.get(b.sid)).muted).toBe(true);
    expect((await conference.participants.list({ muted: true }).toArray()).map((p) => p.call_sid)).toEqual([
      b.sid,
    ]);
    for (const call of [a, b]) await client.calls.update(call.sid, { status: 'completed' });
  });

  it('renames an application', async () => {
    const { client, applicationSid } = world;
    const renamed = await client.applications.update(applicationSid, { friendlyName: 'Front desk' });
    expect([renamed.sid, renamed.friendly_name]).toEqual([applicationSid, 'Front desk']);
    const empty = await failure(client.applications.update(applicationSid, { friendlyName: ' ' }));
    expect([empty.status, empty.parameter]).toEqual([400, 'FriendlyName']);
  });

  it('creates, lists, updates and deletes SIP clients; the password never comes back', async () => {
    const { client } = world;
    const alice = await client.clients.create({
      login: 'alice',
      password: 'alice-secret-1',
      friendlyName: 'Alice',
    });
    expect(alice).toMatchObject({ login: 'alice', friendly_name: 'Alice', status: 'active' });
    expect(alice.sid).toMatch(/^CL[0-9a-f]{32}$/);
    expect(JSON.stringify(alice)).not.toContain('alice-secret-1');

    const taken = await failure(client.clients.create({ login: 'alice', password: 'another-secret' }));
    expect([taken.status, taken.parameter]).toEqual([409, 'Login']);

    const inactive = await client.clients.update(alice.sid, { status: 'inactive' });
    expect([inactive.sid, inactive.status]).toEqual([alice.sid, 'inactive']);
    expect((await client.clients.list({ login: 'alice' }).toArray()).map((c) => c.sid)).toEqual([alice.sid]);
    expect((await client.clients.get(alice.sid)).status).toBe('inactive');

    await client.clients.delete(alice.sid);
    const gone = await failure(client.clients.get(alice.sid));
    expect(gone.status).toBe(404);
  });
});
