import { describe, expect, it } from 'vitest';
import { AGENT_NUMBER, queueHarness, rcml } from './setup.js';

const OTHER = `AC${'b'.repeat(32)}`;

describe('queues per account', () => {
  it('keeps same-named queues of two accounts apart, in matching and in inspection', async () => {
    const h = queueHarness(rcml('<Enqueue>support</Enqueue>'), rcml('<Dial><Queue>support</Queue></Dial>'));
    const mine = h.agent();
    const theirs = h.engine.incomingCall('+16660009999', AGENT_NUMBER, { accountSid: OTHER }).sid;
    await h.engine.advance(2);

    const own = await h.engine.getQueue('support');
    const other = await h.engine.getQueue('support', OTHER);
    expect(own?.enqueued.members.map((m) => m.callSid)).toEqual([mine]);
    expect(other?.enqueued.members.map((m) => m.callSid)).toEqual([theirs]);
    expect(own?.queue.sid).not.toBe(other?.queue.sid);
    expect((await h.engine.listQueues(OTHER)).map((q) => q.name)).toEqual(['support']);
    expect(await h.engine.getQueue('support', `AC${'c'.repeat(32)}`)).toBeUndefined();
  });
});
