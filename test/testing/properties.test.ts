import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/sim/index.js';
import {
  actionResults,
  everyCallEnds,
  type FlowProperty,
  maxCallDuration,
  noErrorNotifications,
  noSelfBridge,
  property,
  queueFifo,
  reachesOneOf,
  runFlow,
  violationsOf,
} from '../../src/testing/index.js';
import { fixture, oneApp, queueScenario } from './flows.js';

const presses9 = { '+15551111': { digits: [{ at: 2, keys: '9' }] } };

async function trace(scenario: Parameters<typeof runFlow>[0]): Promise<Trace> {
  return (await runFlow(scenario)).trace;
}

function holds(p: FlowProperty, t: Trace): boolean {
  return violationsOf(t, [p]).length === 0;
}

describe('ready-made properties: each fails on a flow built to break it and holds on a correct one', () => {
  it('every call ends: an invalid key that redirects the menu to itself loops for ever', async () => {
    const loop = await trace({ ...fixture('ivr-loop'), parties: presses9 });
    const fixed = await trace({ ...fixture('ivr-fixed'), parties: presses9 });
    const [v] = violationsOf(loop, [everyCallEnds()]);
    expect(v?.message).toBe('+15551111 -> +15550100 is still in-progress at 900 s');
    expect(v?.callSid).toBe(loop.calls[0]!.sid);
    expect(holds(everyCallEnds(), fixed)).toBe(true);
  });

  it('no call longer than N s', async () => {
    const long = await trace(oneApp('<Response><Pause length="100"/></Response>'));
    const short = await trace(oneApp('<Response><Pause length="10"/></Response>'));
    expect(violationsOf(long, [maxCallDuration(60)]).map((v) => v.message)).toEqual([
      '+15551111 -> +15550100 lasted 100 s (more than 60 s)',
    ]);
    expect(holds(maxCallDuration(60), short)).toBe(true);
  });

  it('every call reaches one of these URLs, unless the caller hung up first', async () => {
    const urls = ['http://ivr.example/sales', 'http://ivr.example/support', 'http://ivr.example/goodbye'];
    const loop = await trace({ ...fixture('ivr-loop'), parties: presses9 });
    expect(violationsOf(loop, [reachesOneOf(urls)])[0]?.message).toContain('never fetched');
    const fixed = await trace({ ...fixture('ivr-fixed'), parties: presses9 });
    expect(holds(reachesOneOf(urls), fixed)).toBe(true);
    const gone = await trace({
      ...fixture('ivr-loop'),
      parties: { '+15551111': { digits: [{ at: 2, keys: '9' }], hangupAfter: 20 } },
    });
    expect(gone.calls[0]!.endedBy).toBe('caller');
    expect(holds(reachesOneOf(urls), gone)).toBe(true);
  });

  it('queue FIFO held: a match that passes over the longest waiter breaks it', async () => {
    const fair = await trace(queueScenario);
    expect(holds(queueFifo(), fair)).toBe(true);
    const [first, second] = fair.calls.map((c) => c.sid);
    const unfair: Trace = structuredClone(fair);
    for (const e of unfair.queueEvents) if (e.type === 'match') e.waiting.callSid = second!;
    const [v] = violationsOf(unfair, [queueFifo()]);
    expect(v?.message).toBe(
      `'support': ${fair.calls[2]!.sid} took ${second} while ${first} had waited longer`,
    );
  });

  it('no bridge of a call with itself', async () => {
    const dial = await trace(
      oneApp('<Response><Dial>+15552222</Dial></Response>', { parties: { '+15552222': { hangupAfter: 5 } } }),
    );
    expect(dial.connections.some((c) => c.type === 'bridge')).toBe(true);
    expect(holds(noSelfBridge(), dial)).toBe(true);
    const self: Trace = structuredClone(dial);
    for (const c of self.connections) if (c.type === 'bridge') c.peerSid = c.callSid;
    expect(violationsOf(self, [noSelfBridge()])[0]?.message).toMatch(/^CA\w+ bridged with itself$/);
  });

  it('every action request carries its result parameters', async () => {
    const gather = await trace(
      oneApp('<Response><Gather action="/next" numDigits="1"/></Response>', {
        apps: {
          'http://app.test/voice': '<Response><Gather action="/next" numDigits="1"/></Response>',
          'http://app.test/next': '<Response/>',
        },
        parties: { '+15551111': { digits: [{ at: 1, keys: '5' }] } },
      }),
    );
    expect(holds(actionResults(), gather)).toBe(true);
    const stripped: Trace = structuredClone(gather);
    for (const r of stripped.requests) {
      if (r.kind !== 'action') continue;
      delete r.params.Digits;
      delete r.params.SpeechResult;
    }
    expect(violationsOf(stripped, [actionResults()])[0]?.message).toBe(
      'action http://app.test/next of <Gather> lacks Digits or SpeechResult',
    );
  });

  it('no notification of level error', async () => {
    const broken = await trace(oneApp('<Response><Redirect>http://app.test/missing</Redirect></Response>'));
    const [v] = violationsOf(broken, [noErrorNotifications()]);
    expect(v?.message).toMatch(/^error \d+: /);
    expect(holds(noErrorNotifications(), await trace(oneApp('<Response><Say>Hi</Say></Response>')))).toBe(
      true,
    );
  });

  it('property() turns a function into a property: false, a string or a list are violations', async () => {
    const t = await trace(oneApp('<Response><Say>Hi</Say></Response>'));
    expect(
      holds(
        property('ok', () => true),
        t,
      ),
    ).toBe(true);
    expect(
      holds(
        property('ok', () => undefined),
        t,
      ),
    ).toBe(true);
    expect(violationsOf(t, [property('said', () => false)])[0]?.message).toBe('said does not hold');
    expect(violationsOf(t, [property('said', (f) => f.verbsOf(0).join())])[0]?.message).toBe('Say');
  });
});
