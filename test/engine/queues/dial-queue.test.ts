import { describe, expect, it } from 'vitest';
import { queueHarness, rcml, statusOf } from './setup.js';

const AFTER = rcml('<Say>after</Say>');

describe('Dial with a Queue noun', () => {
  it('waits (its waitUrl repeating) until the Dial timeout: DialCallStatus no-answer', async () => {
    const h = queueHarness(
      rcml(''),
      rcml('<Dial timeout="25" action="/dialed"><Queue waitUrl="/hold">q</Queue></Dial>'),
      {
        '/hold': rcml('<Pause length="10"/>'),
        '/dialed': AFTER,
      },
    );
    const c = h.customer();
    await h.engine.advance(40);
    expect(h.paramsOf('/hold').length).toBe(3);
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({ DialCallStatus: 'no-answer', DialRingDuration: '25' }),
    ]);
    expect(h.queueEvents.some((e) => e.type === 'timeout' && e.callSid === c)).toBe(true);
    expect((await h.engine.getQueue('q'))?.dialer.size).toBe(0);
  });

  it('is taken when an agent enqueues: joinUrl documents then the bridge; actions after it ends', async () => {
    const h = queueHarness(
      rcml('<Enqueue joinUrl="/agent-join" action="/enq-after">q</Enqueue>'),
      rcml(
        '<Dial action="/dialed" record="true"><Queue joinUrl="/cust-join" url="/whisper">q</Queue></Dial>',
      ),
      {
        '/agent-join': rcml('<Say>customer coming</Say><Hangup/>'),
        '/cust-join': rcml('<Play>http://app.test/beep.wav</Play>'),
        '/whisper': rcml('<Pause length="2"/>'),
        '/enq-after': AFTER,
        '/dialed': AFTER,
      },
    );
    h.engine.setDefaultParty({ outcome: 'answer' });
    const c = h.customer();
    await h.engine.advance(10);
    const a = h.agent();
    await h.engine.advance(20);
    expect(h.paramsOf('/agent-join')[0]).toMatchObject({ CallSid: a, QueuePosition: '1' });
    expect(h.paramsOf('/cust-join')[0]).toMatchObject({ CallSid: c, QueueTime: '10' });
    expect(h.paramsOf('/whisper')[0]).toMatchObject({ CallSid: a });
    for (const join of [h.paramsOf('/agent-join')[0], h.paramsOf('/cust-join')[0]]) {
      expect(Object.keys(join)).toEqual(
        expect.arrayContaining(
          [
            'CallSid',
            'AccountSid',
            'From',
            'To',
            'CallStatus',
            'QueueSid',
            'QueuePosition',
            'QueueTime',
          ].concat(['AvgQueueTime', 'CurrentQueueSize', 'MaxQueueSize']),
        ),
      );
      expect(join.QueueSid).toMatch(/^QU[0-9a-f]{32}$/);
    }
    expect(
      h.notifications.some((n) => n.code === '14302' && n.message.startsWith('engine.queue-verb: <Hangup>')),
    ).toBe(true);
    expect(h.notifications.some((n) => n.code === '13241')).toBe(true);
    expect(h.recordings).toHaveLength(0);
    const types = h.queueEvents.map((e) => e.type);
    expect(types.indexOf('bridge')).toBeGreaterThan(types.lastIndexOf('join'));
    expect(statusOf(h, a)).toBe('in-progress');
    expect(statusOf(h, c)).toBe('in-progress');
    h.engine.hangupParty(a);
    await h.engine.advance(1);
    expect(h.paramsOf('/enq-after')).toEqual([
      expect.objectContaining({ QueueResult: 'bridged', QueueTime: '0' }),
    ]);
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({ DialCallStatus: 'completed', DialCallSid: a }),
    ]);
    expect(h.verbs(c).at(-1)).toBe('Say');
  });

  it('caller hangs up while waiting: the action is still requested (canceled), the queue forgets it', async () => {
    const h = queueHarness(
      rcml('<Enqueue>q</Enqueue>'),
      rcml('<Dial action="/dialed" timeout="60"><Queue waitUrl="/hold">q</Queue></Dial>'),
      { '/hold': rcml('<Pause length="10"/>'), '/dialed': AFTER },
    );
    const c = h.customer();
    await h.engine.advance(12);
    h.engine.hangupParty(c);
    await h.engine.advance(1);
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({
        CallSid: c,
        CallStatus: 'completed',
        DialCallStatus: 'canceled',
        DialRingDuration: '12',
        DialCallDuration: '0',
      }),
    ]);
    // The answer is requested but not run: the call is over.
    expect(h.verbs(c)).toEqual(['Dial', 'Pause', 'Pause']);
    expect((await h.engine.getQueue('q'))?.dialer.size).toBe(0);
    expect(h.queueEvents).toContainEqual(
      expect.objectContaining({ type: 'leave', callSid: c, reason: 'hangup' }),
    );
    // An agent arriving later finds nobody and waits.
    const a = h.agent();
    await h.engine.advance(1);
    expect((await h.engine.getQueue('q'))?.enqueued.members.map((m) => m.callSid)).toEqual([a]);
  });

  it('caller hangs up while connected or before the bridge: the action gets the outcome', async () => {
    const h = queueHarness(
      rcml('<Enqueue joinUrl="/agent-join" rejoin="true">q</Enqueue>'),
      rcml('<Dial action="/dialed"><Queue>q</Queue></Dial>'),
      // 45 characters: a 3 s join document on the agent before each bridge.
      { '/agent-join': rcml(`<Say>${'x'.repeat(45)}</Say>`), '/dialed': AFTER },
    );
    const a1 = h.agent();
    const c1 = h.customer();
    await h.engine.advance(1);
    h.engine.hangupParty(c1); // during the agent's join document
    await h.engine.advance(5);
    const c2 = h.customer();
    await h.engine.advance(13); // join document 3 s, then 10 s connected
    h.engine.hangupParty(c2);
    await h.engine.advance(1);
    expect(
      h.paramsOf('/dialed').map((p) => [p.CallSid, p.DialCallStatus, p.DialCallSid, p.DialCallDuration]),
    ).toEqual([
      [c1, 'canceled', a1, '0'],
      [c2, 'completed', a1, '10'],
    ]);
    expect(h.verbs(c2)).toEqual(['Dial']);
  });

  it('a full dialer side makes the Dial busy', async () => {
    const h = queueHarness(
      rcml(''),
      rcml('<Dial action="/dialed"><Queue>q</Queue></Dial>'),
      { '/dialed': AFTER },
      1,
    );
    h.customer();
    h.customer();
    await h.engine.advance(1);
    expect(h.paramsOf('/dialed')).toEqual([expect.objectContaining({ DialCallStatus: 'busy' })]);
  });
});

describe('rejoin (SPEC table)', () => {
  const agentApp = (rejoin: boolean) =>
    rcml(`<Enqueue rejoin="${rejoin}" waitUrl="/wait" action="/enq-after">q</Enqueue>`);
  const apps = { '/wait': rcml('<Pause length="5"/>'), '/enq-after': AFTER };

  it('customer hangs up, none queued, rejoin=true: the agent waits again (hold audio)', async () => {
    const h = queueHarness(agentApp(true), rcml('<Dial><Queue>q</Queue></Dial>'), apps);
    const a = h.agent();
    await h.engine.advance(3);
    const c = h.customer();
    await h.engine.advance(10);
    h.engine.hangupParty(c);
    await h.engine.advance(12);
    expect(h.queueEvents.some((e) => e.type === 'rejoin' && e.callSid === a)).toBe(true);
    expect((await h.engine.getQueue('q'))?.enqueued.members.map((m) => m.callSid)).toEqual([a]);
    expect(h.queueEvents.filter((e) => e.type === 'wait-loop' && e.callSid === a).length).toBeGreaterThan(1);
    expect(statusOf(h, a)).toBe('in-progress');
  });

  it('customer hangs up, none queued, rejoin=false: the agent call is dropped', async () => {
    const h = queueHarness(agentApp(false), rcml('<Dial><Queue>q</Queue></Dial>'), apps);
    const a = h.agent();
    const c = h.customer();
    await h.engine.advance(10);
    h.engine.hangupParty(c);
    await h.engine.advance(1);
    expect(h.queueEvents.some((e) => e.type === 'drop' && e.callSid === a)).toBe(true);
    expect(statusOf(h, a)).toBe('completed');
    expect(h.paramsOf('/enq-after')).toEqual([expect.objectContaining({ QueueResult: 'bridged' })]);
  });

  it('customer hangs up while others are queued: the next one is connected', async () => {
    const h = queueHarness(agentApp(false), rcml('<Dial timeout="600"><Queue>q</Queue></Dial>'), apps);
    const a = h.agent();
    const c1 = h.customer();
    await h.engine.advance(1);
    const c2 = h.customer();
    await h.engine.advance(10);
    h.engine.hangupParty(c1);
    await h.engine.advance(1);
    const bridges = h.queueEvents.filter((e) => e.type === 'bridge');
    expect(bridges.map((e) => (e.type === 'bridge' ? e.partnerCallSid : ''))).toEqual([c1, c2]);
    expect(statusOf(h, a)).toBe('in-progress');
  });
});

describe('rejoin on the Queue noun: a dialer that waited is the queued agent', () => {
  /** Agents dial the queue and wait; customers Enqueue. */
  const agentDial = (rejoin: string) =>
    rcml(`<Dial timeout="600" action="/dialed"><Queue waitUrl="/wait"${rejoin}>q</Queue></Dial>`);
  const apps = { '/wait': rcml('<Pause length="5"/>'), '/dialed': AFTER };
  const customerApp = rcml('<Enqueue>q</Enqueue>');
  const dialerEvents = (h: ReturnType<typeof queueHarness>, type: string) =>
    h.queueEvents.filter((e) => e.type === type && 'side' in e && e.side === 'dialer');

  it('rejoin=true, none queued: the agent waits again (its wait loop) and takes the next customer', async () => {
    const h = queueHarness(agentDial(' rejoin="true"'), customerApp, apps);
    const a = h.agent();
    await h.engine.advance(3);
    const c1 = h.customer();
    await h.engine.advance(10);
    h.engine.hangupParty(c1);
    await h.engine.advance(12);
    expect(dialerEvents(h, 'rejoin').map((e) => 'callSid' in e && e.callSid)).toEqual([a]);
    expect((await h.engine.getQueue('q'))?.dialer.members.map((m) => m.callSid)).toEqual([a]);
    const rounds = h.queueEvents.filter((e) => e.type === 'wait-loop' && e.callSid === a);
    expect(rounds.length).toBeGreaterThan(2);
    expect(h.paramsOf('/dialed')).toEqual([]);
    const c2 = h.customer();
    await h.engine.advance(1);
    const bridges = h.queueEvents.flatMap((e) =>
      e.type === 'bridge' ? [[e.callSid, e.partnerCallSid]] : [],
    );
    expect(bridges).toEqual([
      [c1, a],
      [c2, a],
    ]);
    // The agent hangs up itself: its Dial reports the last bridge.
    h.engine.hangupParty(a);
    await h.engine.advance(1);
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({ DialCallStatus: 'completed', DialCallSid: c2, DialCallDuration: '1' }),
    ]);
  });

  it('rejoin=false, none queued: the agent call is dropped, its action notified', async () => {
    const h = queueHarness(agentDial(' rejoin="false"'), customerApp, apps);
    const a = h.agent();
    await h.engine.advance(3);
    const c = h.customer();
    await h.engine.advance(10);
    h.engine.hangupParty(c);
    await h.engine.advance(1);
    expect(dialerEvents(h, 'drop').map((e) => 'callSid' in e && e.callSid)).toEqual([a]);
    expect(statusOf(h, a)).toBe('completed');
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({ DialCallStatus: 'completed', DialCallSid: c, DialCallDuration: '10' }),
    ]);
    expect(h.verbs(a)).not.toContain('Say');
  });

  it('customers queued: the next one is connected, whatever rejoin says', async () => {
    const h = queueHarness(agentDial(' rejoin="false"'), customerApp, apps);
    const a = h.agent();
    await h.engine.advance(1);
    const c1 = h.customer();
    await h.engine.advance(1);
    const c2 = h.customer();
    await h.engine.advance(5);
    h.engine.hangupParty(c1);
    await h.engine.advance(1);
    const bridges = h.queueEvents.flatMap((e) => (e.type === 'bridge' ? [e.callSid] : []));
    expect(bridges).toEqual([c1, c2]);
    expect(statusOf(h, a)).toBe('in-progress');
  });

  it('without rejoin, or when the dialer did not wait (a customer), the Dial simply ends', async () => {
    for (const [app, agentFirst] of [
      [agentDial(''), true],
      [agentDial(' rejoin="true"'), false],
    ] as const) {
      const h = queueHarness(app, customerApp, apps);
      const first = agentFirst ? h.agent() : h.customer();
      await h.engine.advance(2);
      const second = agentFirst ? h.customer() : h.agent();
      await h.engine.advance(5);
      const [a, c] = agentFirst ? [first, second] : [second, first];
      h.engine.hangupParty(c);
      await h.engine.advance(1);
      expect(h.paramsOf('/dialed')).toEqual([expect.objectContaining({ DialCallStatus: 'completed' })]);
      expect(h.verbs(a).at(-1)).toBe('Say');
      expect(h.queueEvents.some((e) => e.type === 'rejoin' || e.type === 'drop')).toBe(false);
    }
  });
});
