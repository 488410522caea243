import { describe, expect, it } from 'vitest';
import { writeWav } from '../../src/engine/wav.js';
import { BASE, harness, rcml } from './harness.js';

const T0 = Date.UTC(2024, 0, 1);

function room(attrs: string, after = '') {
  return rcml(`<Dial action="/after"><Conference ${attrs}>sales</Conference></Dial>${after}`);
}

describe('Dial Conference', () => {
  it('waits with the waitUrl document until a starter joins, and ends when an ender leaves', async () => {
    const h = harness({
      '/wait': rcml(
        `<Dial><Conference startConferenceOnEnter="false" waitUrl="${BASE}/music">sales</Conference></Dial>`,
      ),
      '/host': rcml('<Dial action="/after"><Conference endConferenceOnExit="true">sales</Conference></Dial>'),
      '/music': rcml('<Play>http://media.test/hold.wav</Play>'),
      '/after': rcml(''),
    });
    h.engine.registerHandler('http://media.test/hold.wav', () => ({
      status: 200,
      contentType: 'audio/wav',
      body: writeWav(5),
    }));
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/wait` });
    h.engine.setNumber('+200', { voiceUrl: `${BASE}/host` });
    h.engine.setParty('+2', { hangupAfter: 30 });
    const guest = h.engine.incomingCall('+1', '+100');
    await h.engine.advance(12);
    const [conf] = h.engine.listConferences();
    expect(conf.status).toBe('init');
    expect(conf.participants.map((p) => p.callSid)).toEqual([guest.sid]);
    const host = h.engine.incomingCall('+2', '+200');
    await h.engine.advance(1);
    expect(h.engine.getConference(conf.sid)?.status).toBe('in-progress');
    expect(h.engine.getConference(conf.sid)?.participants).toHaveLength(2);
    await h.engine.runUntilIdle();
    expect(h.engine.getConference(conf.sid)?.status).toBe('completed');
    expect(h.engine.getConference(conf.sid)?.participants).toEqual([]);
    expect(h.engine.getCall(guest.sid)?.status).toBe('completed');
    expect(h.engine.getCall(host.sid)?.duration).toBe(30);
    // The wait document was fetched once; its Play looped while the room had not started.
    expect(h.requests.filter((r) => r.kind === 'conference-wait')).toHaveLength(1);
    const actions = h.events.flatMap((e) => (e.type === 'conference' ? [e.action] : []));
    // The host's entry beeps (the room is running); the guest waited, and the end has no exit tone.
    expect(actions).toEqual(['join', 'join', 'start', 'beep', 'leave', 'end', 'leave']);
  });

  it('beeps when a beep=true participant enters or leaves the running room, never for beep=false', async () => {
    const h = harness({
      '/beep': room(''),
      '/quiet': room('beep="false"'),
      '/after': rcml(''),
    });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/beep` });
    h.engine.setNumber('+200', { voiceUrl: `${BASE}/quiet` });
    h.engine.setParty('+1', { hangupAfter: 40 });
    h.engine.setParty('+2', { hangupAfter: 20 });
    h.engine.setParty('+3', { hangupAfter: 25 });
    const a = h.engine.incomingCall('+1', '+100');
    await h.engine.advance(5);
    const b = h.engine.incomingCall('+2', '+200');
    await h.engine.advance(5);
    const c = h.engine.incomingCall('+3', '+100');
    await h.engine.runUntilIdle();
    const tones = h.events.flatMap((e) =>
      e.type === 'conference' && e.action === 'beep' ? [[e.callSid, e.tone?.on, (e.at - T0) / 1000]] : [],
    );
    // a starts the room (beep); b is quiet both ways; c beeps in and out; a's exit closes the room.
    expect(tones).toEqual([
      [a.sid, 'join', 0],
      [c.sid, 'join', 10],
      [c.sid, 'leave', 35],
    ]);
    const tone = h.events.find((e) => e.type === 'conference' && e.action === 'beep');
    expect(tone).toMatchObject({ tone: { on: 'join', seconds: 0.5 } });
    expect(h.engine.getCall(b.sid)?.status).toBe('completed');
  });

  it('sends the caller to the next verb when the room is full', async () => {
    const h = harness({ '/c': room('maxParticipants="1"', '<Say>full</Say>'), '/after': rcml('') });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/c` });
    h.engine.setParty('+1', { hangupAfter: 50 });
    h.engine.incomingCall('+1', '+100');
    await h.engine.advance(1);
    const second = h.engine.incomingCall('+2', '+100');
    await h.engine.runUntilIdle();
    expect(h.verbs(second.sid)).toEqual(['Dial', 'Say']);
    expect(h.notifications.some((n) => n.code === '13237')).toBe(true);
  });

  it('holds 40 participants by default; the 41st goes to the next verb', async () => {
    const h = harness({ '/c': room('', '<Say>full</Say>'), '/after': rcml('') });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/c` });
    h.engine.setDefaultParty({ hangupAfter: 50 });
    const callers = Array.from({ length: 41 }, (_, i) => h.engine.incomingCall(`+${i + 1}`, '+100'));
    await h.engine.advance(10);
    const [conf] = h.engine.listConferences();
    expect(conf.participants).toHaveLength(40);
    expect(callers.slice(0, 40).map((c) => h.verbs(c.sid))).toEqual(Array(40).fill(['Dial']));
    expect(h.verbs(callers[40].sid)).toEqual(['Dial', 'Say']);
    await h.engine.runUntilIdle();
    expect(h.engine.liveCount).toBe(0);
  });

  it('mutes participants and shows mute and hold state', async () => {
    const h = harness({ '/c': room('muted="true"'), '/after': rcml('') });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/c` });
    const a = h.engine.incomingCall('+1', '+100');
    await h.engine.advance(1);
    const [conf] = h.engine.listConferences();
    expect(conf.participants[0]).toMatchObject({ callSid: a.sid, muted: true, hold: false });
    expect(h.engine.muteParticipant(conf.sid, a.sid, false).muted).toBe(false);
    expect(() => h.engine.muteParticipant(conf.sid, 'CAnope', true)).toThrow(/not in conference/);
    expect(() => h.engine.muteParticipant('CFnope', a.sid, true)).toThrow(
      expect.objectContaining({ code: 'unknown-conference' }),
    );
    h.engine.registerHandler(`${BASE}/hold`, () => ({
      status: 200,
      contentType: 'text/xml',
      body: rcml('<Hold/>'),
    }));
    h.engine.modifyCall(a.sid, { Url: `${BASE}/hold`, ChildCallMode: 'StayConnected' });
    await h.engine.advance(1);
    expect(h.engine.getConference(conf.sid)?.participants[0]).toMatchObject({ callSid: a.sid, hold: true });
    // Each change reached the record sink: join (muted), unmute, hold.
    expect(h.conferences.map((r) => [r.status, r.participants[0]?.muted, r.participants[0]?.hold])).toEqual([
      ['in-progress', true, false],
      ['in-progress', false, false],
      ['in-progress', false, true],
    ]);
    await h.engine.close();
  });

  it('reports the room to the record sink on every change, ending with no participant', async () => {
    const h = harness({
      '/guest': room('startConferenceOnEnter="false"'),
      '/host': room('endConferenceOnExit="true"'),
      '/after': rcml(''),
    });
    h.engine.setNumber('+100', { voiceUrl: `${BASE}/guest` });
    h.engine.setNumber('+200', { voiceUrl: `${BASE}/host` });
    h.engine.setParty('+2', { hangupAfter: 10 });
    const guest = h.engine.incomingCall('+1', '+100');
    await h.engine.advance(3);
    const host = h.engine.incomingCall('+2', '+200');
    await h.engine.runUntilIdle();
    const seen = h.conferences.map((r) => [r.status, r.participants.map((p) => p.callSid)]);
    expect(seen).toEqual([
      ['init', [guest.sid]],
      ['in-progress', [guest.sid, host.sid]],
      ['completed', [guest.sid]],
      ['completed', []],
    ]);
    const last = h.conferences.at(-1);
    expect(last).toEqual(h.engine.getConference(last?.sid ?? ''));
  });
});
