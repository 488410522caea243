import { describe, expect, it } from 'vitest';
import { BASE, queueHarness, rcml, statusOf } from './setup.js';

const say = (text: string) => `<Say>${text}</Say>`;
const AFTER = rcml(say('after'));

describe('Enqueue waiting', () => {
  it('loops the wait document with queue parameters until dequeued, Redirect giving the next round', async () => {
    let round = 0;
    const h = queueHarness(
      rcml('<Enqueue waitUrl="/wait">support</Enqueue>'),
      rcml('<Dial><Queue>support</Queue></Dial>'),
      {
        '/wait': () => (++round === 2 ? rcml('<Redirect>/other</Redirect>') : rcml('<Pause length="10"/>')),
        '/other': rcml('<Pause length="4"/>'),
      },
    );
    const a1 = h.agent();
    await h.engine.advance(1);
    const a2 = h.agent();
    await h.engine.advance(35);
    const waits = h.paramsOf('/wait').filter((p) => p.CallSid === a2);
    expect(waits.length).toBeGreaterThan(2);
    expect(waits[0]).toMatchObject({
      QueuePosition: '2',
      CurrentQueueSize: '2',
      MaxQueueSize: '100',
      QueueTime: '0',
      AvgQueueTime: '0',
    });
    expect(waits[0].QueueSid).toMatch(/^QU[0-9a-f]{32}$/);
    expect(h.paramsOf('/other').length).toBe(1);
    expect(h.queueEvents.filter((e) => e.type === 'wait-loop' && e.callSid === a1).length).toBeGreaterThan(3);
    // The first agent is taken: the second moves to position 1 on its next round.
    h.customer();
    await h.engine.advance(15);
    const last = h
      .paramsOf('/wait')
      .filter((p) => p.CallSid === a2)
      .at(-1);
    expect(last).toMatchObject({ QueuePosition: '1', CurrentQueueSize: '1', AvgQueueTime: '36' });
    expect(statusOf(h, a1)).toBe('in-progress');
  });

  it('refuses verbs outside the wait family with a notification and skips them', async () => {
    const h = queueHarness(rcml('<Enqueue waitUrl="/wait">q</Enqueue>'), rcml(''), {
      '/wait': rcml('<Dial>+15551234</Dial><Record/><Pause length="5"/>'),
    });
    const a = h.agent();
    await h.engine.advance(12);
    expect(h.notifications.filter((n) => n.code === '14302').map((n) => n.message.slice(19, 26))).toEqual(
      expect.arrayContaining(['<Dial> ', '<Record']),
    );
    expect(h.verbs(a)).not.toContain('Dial');
    expect(statusOf(h, a)).toBe('in-progress');
  });

  it('Leave in the wait document ends the wait with QueueResult=leave and QueueTime', async () => {
    const h = queueHarness(rcml('<Enqueue waitUrl="/wait" action="/after">q</Enqueue>'), rcml(''), {
      '/wait': rcml('<Pause length="7"/><Leave/>'),
      '/after': AFTER,
    });
    const a = h.agent();
    await h.engine.runUntilIdle();
    expect(h.paramsOf('/after')).toEqual([
      expect.objectContaining({ QueueResult: 'leave', QueueTime: '7', CallSid: a }),
    ]);
    expect(h.verbs(a)).toContain('Say');
    expect(h.queueEvents.some((e) => e.type === 'leave' && e.reason === 'leave')).toBe(true);
    expect((await h.engine.getQueue('q'))?.enqueued.size).toBe(0);
  });

  it('without action the next verb runs after leaving', async () => {
    const h = queueHarness(rcml(`<Enqueue waitUrl="/wait">q</Enqueue>${say('next')}`), rcml(''), {
      '/wait': rcml('<Leave/>'),
    });
    const a = h.agent();
    await h.engine.runUntilIdle();
    expect(h.verbs(a)).toEqual(['Enqueue', 'Leave', 'Say']);
    expect(statusOf(h, a)).toBe('completed');
  });

  it('hang-up while waiting removes the call, moves the next up and reports QueueResult=hangup', async () => {
    const h = queueHarness(rcml('<Enqueue action="/after">q</Enqueue>'), rcml(''), { '/after': AFTER });
    const a1 = h.agent();
    const a2 = h.agent();
    await h.engine.advance(9);
    h.engine.hangupParty(a1);
    await h.engine.advance(1);
    expect(h.paramsOf('/after')).toEqual([
      expect.objectContaining({ QueueResult: 'hangup', QueueTime: '9', CallSid: a1 }),
    ]);
    const q = await h.engine.getQueue('q');
    expect(q?.enqueued.members.map((m) => [m.callSid, m.position])).toEqual([[a2, 1]]);
    expect(h.queueEvents.some((e) => e.type === 'position-change' && e.vacated === 1)).toBe(true);
  });

  it('live modification with Url dequeues the call with QueueResult=redirected', async () => {
    const h = queueHarness(rcml('<Enqueue waitUrl="/wait" action="/after">q</Enqueue>'), rcml(''), {
      '/wait': rcml('<Pause length="3"/>'),
      '/after': AFTER,
      '/elsewhere': rcml('<Pause length="2"/>'),
    });
    const a = h.agent();
    await h.engine.advance(5);
    h.engine.modifyCall(a, { Url: `${BASE}/elsewhere` });
    await h.engine.advance(1);
    expect(h.paramsOf('/after')).toEqual([expect.objectContaining({ QueueResult: 'redirected' })]);
    expect((await h.engine.getQueue('q'))?.enqueued.size).toBe(0);
    expect(h.paramsOf('/elsewhere').length).toBe(1);
  });

  it('a full queue ends Enqueue at once with QueueResult=queue-full', async () => {
    const h = queueHarness(rcml('<Enqueue action="/after">q</Enqueue>'), rcml(''), { '/after': AFTER }, 2);
    h.agent();
    h.agent();
    const third = h.agent();
    await h.engine.advance(1);
    expect(h.paramsOf('/after')).toEqual([
      expect.objectContaining({ QueueResult: 'queue-full', CallSid: third, QueueTime: '0' }),
    ]);
    expect(h.queueEvents.filter((e) => e.type === 'queue-full')).toHaveLength(1);
  });

  it('refuses a bad size limit naming the option', () => {
    expect(() => queueHarness('', '', {}, 6000)).toThrow(/queues\.maxSize/);
  });

  it('Leave outside a queue is skipped with a warning', async () => {
    const h = queueHarness(rcml(`<Leave/>${say('x')}`), '');
    const a = h.agent();
    await h.engine.runUntilIdle();
    expect(h.verbs(a)).toEqual(['Leave', 'Say']);
    expect(h.notifications.some((n) => n.code === '14301')).toBe(true);
  });
});
