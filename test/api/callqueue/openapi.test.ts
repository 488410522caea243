import { afterEach, describe, expect, it } from 'vitest';
import { callQueueOpenApi } from '../../../src/api/callqueue/openapi.js';
import { writeWav } from '../../../src/engine/wav.js';
import { ACCOUNT_A } from '../../store/fixtures.js';
import { AUTH_B, setup } from '../harness.js';
import {
  declaredRoutes,
  problemsOf,
  recordExchanges,
  registeredRoutes,
  unconvertible,
  unexercised,
} from '../openapi-areas.js';
import { callQueueServer, xml } from './harness.js';

const areas = [callQueueOpenApi];
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

describe('Call Queuing OpenAPI declarations', () => {
  it('declare exactly the routes the product registers, each convertible to JSON Schema', async () => {
    const { app } = await setup();
    expect(declaredRoutes(areas).sort()).toEqual(registeredRoutes(app, ['/callqueue']));
    expect(unconvertible(areas)).toEqual([]);
  });

  it('the queue change is validated by its declared schema, with the messages it always had', async () => {
    const s = await callQueueServer();
    opened.push(s);
    s.serve('http://app.test/customer', () => xml('<Dial timeout="300"><Queue>support</Queue></Dial>'));
    await s.json('/callqueue/provisioning', {
      body: { applicationUrl: 'http://app.test/customer', phoneNumber: '+15550100' },
    });
    s.engine.incomingCall('+15551001', '+15550100');
    await s.engine.advance(5);
    const sid = (await s.json('/callqueue/queues')).body.queues[0].sid as string;
    const change = async (body: unknown) => (await s.json(`/callqueue/queues/${sid}`, { body })).body;
    const hint = 'expected a whole number from 1 to 5000';
    for (const bad of [0, 5001, 1.5, '7', null, true]) {
      expect(await change({ maxSize: bad })).toMatchObject({
        status: 400,
        parameter: 'maxSize',
        message: `maxSize: ${hint}, got ${JSON.stringify(bad)}`,
      });
    }
    expect(await change({})).toMatchObject({
      parameter: 'maxSize',
      message: `maxSize: is required: ${hint}`,
    });
    expect(await change({ name: 'x', maxSize: 0 })).toMatchObject({
      parameter: 'name',
      message: 'name: unknown field (only maxSize can change)',
    });
    expect(await change({ maxSize: 7 })).toMatchObject({ maxSize: 7 });
  });

  it('match what every route really answers, with and without a call engine', async () => {
    const s = await callQueueServer();
    opened.push(s);
    const exchanges = recordExchanges(s.app);
    s.serve('http://app.test/customer', () => xml('<Dial timeout="300"><Queue>support</Queue></Dial>'));
    s.serve('http://app.test/agent', () => xml('<Enqueue>support</Enqueue>'));
    s.serve('http://app.test/music', () => ({ status: 200, contentType: 'audio/wav', body: writeWav(5) }));
    const provision = (body: unknown, auth?: string) => s.json('/callqueue/provisioning', { body, auth });
    const customer = (
      await provision({ applicationUrl: 'http://app.test/customer', phoneNumber: '+15550100' })
    ).body.sid as string;
    const agent = (await provision({ applicationUrl: 'http://app.test/agent', phoneNumber: '15550200' })).body
      .sid as string;
    await provision({ applicationUrl: 'http://app.test/agent', phoneNumber: '+15550200' });
    await provision({ applicationUrl: 'http://app.test/agent', phoneNumber: '+15550200' }, AUTH_B);
    await provision({ applicationUrl: 'ftp://x', phoneNumber: '+15550300', extra: 1 });
    await s.json('/callqueue/provisioning', { raw: '[1]' });

    const waiting = s.engine.incomingCall('+15551001', '+15550100');
    await s.engine.advance(5);
    const queues = await s.json('/callqueue/queues?Name=support');
    const queueSid = queues.body.queues[0].sid as string;
    expect(queues.body.queues[0].customers.members).toHaveLength(1);
    await s.json(`/callqueue/queues/${queueSid}`);
    await s.json(`/callqueue/queues/${queueSid}`, { body: { maxSize: 10 } });
    await s.json(`/callqueue/queues/${queueSid}`, { body: { maxSize: 0 } });
    await s.json('/callqueue/queues/QU0');
    const answering = s.engine.incomingCall('+15552001', '+15550200');
    await s.engine.advance(5);
    s.engine.hangupParty(waiting.sid);
    s.engine.hangupParty(answering.sid);
    await s.engine.runUntilIdle();

    await s.form('/callqueue/callback', { CallSid: 'CA0', AccountSid: ACCOUNT_A, To: '+15550100' }, null);
    await s.form(
      '/callqueue/callback',
      { CallSid: 'CA0', AccountSid: ACCOUNT_A, To: '+15550100', CallStatus: 'completed' },
      null,
    );
    await s.json('/callqueue/numbers');
    await s.json(`/callqueue/numbers/${customer}`);
    await s.json(`/callqueue/numbers/${customer}/calls`);
    await s.json(`/callqueue/numbers/${customer}/events?CallSid=${waiting.sid}`);
    await s.json(`/callqueue/numbers/${agent}/events`);
    await s.json('/callqueue/numbers/PN0', { auth: AUTH_B });
    await s.json(`/callqueue/numbers/${agent}`, { method: 'DELETE' });
    await s.json(`/callqueue/numbers/${agent}`, { method: 'DELETE' });
    await s.json('/callqueue/numbers', { auth: null });

    const plain = await setup();
    const withoutEngine = recordExchanges(plain.app);
    await plain.json('/callqueue/queues');

    const all = [...exchanges, ...withoutEngine];
    expect([...new Set(all.map((e) => e.status))].sort()).toEqual([200, 204, 400, 401, 403, 404, 409, 501]);
    expect(all.flatMap((ex) => problemsOf(areas, ex))).toEqual([]);
    expect(unexercised(areas, all)).toEqual([]);
  });
});
