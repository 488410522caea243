import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { runFlow } from '../../src/testing/index.js';
import { oneApp, queueScenario } from './flows.js';

const xml = (body: string) => () => ({ status: 200, contentType: 'text/xml', body });

describe('traces that do not mislead', () => {
  it('input a listening verb heard but did not use is not counted as used', async () => {
    const keys = await runFlow(
      oneApp('<Response><Gather numDigits="1" action="/next"><Say>Hi</Say></Gather></Response>', {
        apps: {
          'http://app.test/voice':
            '<Response><Gather numDigits="1" action="/next"><Say>Hi</Say></Gather></Response>',
          'http://app.test/next': '<Response><Pause length="3"/></Response>',
        },
        parties: { '+15551111': { digits: [{ at: 0.5, keys: '12' }] } },
      }),
    );
    expect(keys.call(0).inputs).toEqual([
      { at: 0.5, kind: 'dtmf', value: '12', heard: true, used: true, discarded: '2' },
    ]);
    expect(keys.timeline()).toContain('input "2" not used (past numDigits)');

    const speech = await runFlow(
      oneApp('<Response><Gather input="speech" timeout="3"/><Say>Bye</Say></Response>', {
        parties: { '+15551111': { digits: [{ at: 1, keys: '5' }] } },
      }),
    );
    expect(speech.call(0).inputs).toEqual([{ at: 1, kind: 'dtmf', value: '5', heard: true, used: false }]);
    expect(speech.timeline()).toContain('input "5" not used (keys not gathered)');
  });

  it('a queue match shows in the timeline of both calls', async () => {
    const flow = await runFlow(queueScenario);
    const agent = flow.call({ from: '+15559001' });
    const customer = flow.call({ from: '+15558001' });
    const line = `'support': ${agent.sid} takes ${customer.sid}`;
    expect(flow.timeline({ callSid: agent.sid })).toContain(line);
    expect(flow.timeline({ callSid: customer.sid })).toContain(line);
  });

  it('verb events say what the caller was offered: Dial targets, Say text, Play URL, Gather attributes', async () => {
    const flow = await runFlow(
      oneApp(
        '<Response><Play>/hello.wav</Play><Gather numDigits="2" finishOnKey="*" timeout="2"><Say voice="woman">Code?</Say></Gather>' +
          '<Dial timeout="5"><Number>+15552222</Number><Client>alice</Client><Sip>sip:bob@x.test</Sip></Dial></Response>',
        {
          apps: {
            'http://app.test/voice':
              '<Response><Play>/hello.wav</Play><Gather numDigits="2" finishOnKey="*" timeout="2"><Say voice="woman">Code?</Say></Gather>' +
              '<Dial timeout="5"><Number>+15552222</Number><Client>alice</Client><Sip>sip:bob@x.test</Sip></Dial></Response>',
            'http://app.test/hello.wav': '',
          },
          defaultParty: { outcome: 'no-answer' },
        },
      ),
    );
    const details = flow.call(0).verbs.map((v) => [v.verb, v.details]);
    expect(details).toEqual([
      ['Play', { url: '/hello.wav' }],
      ['Gather', { numDigits: 2, finishOnKey: '*', timeout: 2 }],
      ['Say', { text: 'Code?', voice: 'woman' }],
      ['Dial', { timeout: 5, targets: ['+15552222', 'client:alice', 'sip:bob@x.test'] }],
    ]);
  });
});

describe('engine helpers for tests', () => {
  function ivrEngine() {
    const engine = createEngine({ seed: 1 });
    engine.registerHandler(
      'http://app.test/ivr',
      xml(
        '<Response><Say>Welcome</Say><Gather numDigits="1" action="/menu"><Say>Press 1</Say></Gather></Response>',
      ),
    );
    engine.registerHandler('http://app.test/menu', xml('<Response><Dial>+15552222</Dial></Response>'));
    engine.setNumber('+15550100', { voiceUrl: 'http://app.test/ivr' });
    return engine;
  }

  it('scheduleCall places calls at a clock time; runUntilWaitingForInput and runUntilVerb stop where asked', async () => {
    const engine = ivrEngine();
    const placed = engine.scheduleCall({ at: 5, from: '+15551111', to: '+15550100' });
    await engine.advance(5);
    const call = await placed;
    expect(call.dateCreated - Date.UTC(2024, 0, 1)).toBe(5000);
    expect(await engine.runUntilWaitingForInput(call.sid)).toBe(true);
    const waitingAt = engine.now();
    expect(engine.liveCall(call.sid).listening).toBe(true);
    engine.sendDigits(call.sid, '1');
    expect(await engine.runUntilVerb(call.sid, 'Dial')).toBe(true);
    expect(engine.now()).toBe(waitingAt);
    // Nothing more to wait for: the call ends (the callee answers and hangs up) and it says so.
    engine.setParty('+15552222', { hangupAfter: 2 });
    expect(await engine.runUntilVerb(call.sid, 'Gather')).toBe(false);
    const api = engine.scheduleCall({
      at: 1,
      api: { From: '+15550100', To: '+15553333', Url: 'http://app.test/ivr' },
    });
    await engine.advance(1);
    expect((await api).direction).toBe('outbound-api');
    await engine.close();
  });

  it('the default party may be a function of the call', async () => {
    const engine = ivrEngine();
    engine.setDefaultParty((call, address) =>
      call.direction === 'inbound' && address.endsWith('1')
        ? { digits: [{ at: 2, keys: '1' }] }
        : { outcome: 'busy' },
    );
    const first = engine.incomingCall('+15551111', '+15550100');
    await engine.runUntilIdle();
    expect(engine.listCalls().map((c) => [c.from, c.to, c.status])).toEqual([
      ['+15551111', '+15550100', 'completed'],
      ['+15551111', '+15552222', 'busy'],
    ]);
    expect(engine.getCall(first.sid)?.endedBy).toBe('application');
    await engine.close();
  });

  it('scheduleCall refuses a bad time', () => {
    const engine = ivrEngine();
    expect(() => engine.scheduleCall({ at: -1, from: '+1', to: '+2' })).toThrow(
      'at: must be a number of seconds >= 0, got -1',
    );
  });
});
