import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InMemoryLine, run } from '../../docs/examples/in-memory-line.js';
import { createEngine } from '../../src/index.js';

const docs = readFileSync(new URL('../../docs/telephony.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../docs/examples/in-memory-line.ts', import.meta.url), 'utf8');

describe('docs/telephony.md: a CallLine over an in-memory fake', () => {
  it('is shown in full in the docs', () => {
    expect(docs).toContain(example.trim());
  });

  it('runs an IVR call on the line: answer, prompt stopped by the key, the action, hang-up', async () => {
    const { call, status, log } = await run();
    expect(status).toBe('completed');
    expect(call?.status).toBe('completed');
    expect(log).toEqual([
      'answer',
      'play "Press 1 for sales."',
      'stop',
      'play "You pressed 1."',
      'end completed',
    ]);
  });

  it('hears the far end hang up, and is told an unknown number', async () => {
    const engine = createEngine({ clock: 'real' });
    engine.registerHandler('http://app.test/long', () => ({
      status: 200,
      contentType: 'text/xml',
      body: '<Response><Pause length="60"/></Response>',
    }));
    engine.setNumber('+15550100', { voiceUrl: 'http://app.test/long' });
    const line = new InMemoryLine();
    const call = engine.acceptCall({
      line,
      from: '+15551111',
      to: '+15550100',
      headers: { 'X-Tenant': 'a' },
    });
    // Pause does not answer: the call rings, and the caller gives up (a CANCEL).
    expect(engine.getCall(call.sid)?.status).toBe('ringing');
    line.hangUp();
    expect(await line.ended).toBe('canceled');
    expect(engine.getCall(call.sid)).toMatchObject({ status: 'canceled', endedBy: 'caller' });

    const stray = new InMemoryLine();
    const unknown = engine.acceptCall({ line: stray, from: '+15551111', to: '+15550199' });
    expect(engine.getCall(unknown.sid)?.status).toBe('failed');
    expect(stray.log).toEqual(['end failed (unknown-number)']);
    await engine.close();
  });
});
