import { describe, expect, it } from 'vitest';
import { organizationSid } from '../../src/engine/sids.js';
import { readWavInfo, writeWav } from '../../src/engine/wav.js';
import { BASE, callIn, harness, rcml } from './harness.js';

const T0 = Date.UTC(2024, 0, 1);

describe('Say, Play, Pause', () => {
  it('Say lasts its text at 15 characters/s, times loop; empty Say takes no time', async () => {
    const h = harness({ '/s': rcml('<Say loop="3">123456789012345</Say><Say></Say>') });
    const call = await callIn(h, '/s');
    expect(call.endTime).toBe(T0 + 3000);
  });

  it('Play lasts the real length of a fetchable WAV, else the default 5 s with a warning', async () => {
    const h = harness({ '/p': rcml('<Play loop="2">/audio/tone.wav</Play><Play>/missing.wav</Play>') });
    h.engine.registerHandler(`${BASE}/audio/tone.wav`, () => ({
      status: 200,
      contentType: 'audio/wav',
      body: writeWav(1.5),
    }));
    // Fetched, but no WAV file: its length is unknown (media that cannot be fetched is 13233).
    h.engine.registerHandler(`${BASE}/missing.wav`, () => ({
      status: 200,
      contentType: 'audio/mpeg',
      body: new Uint8Array(16),
    }));
    const call = await callIn(h, '/p');
    expect(call.endTime).toBe(T0 + 3000 + 5000);
    expect(h.notifications.map((n) => n.code)).toEqual(['11205']);
    expect(h.requests.filter((r) => r.kind === 'media').map((r) => r.url)).toEqual([
      `${BASE}/audio/tone.wav`,
      `${BASE}/missing.wav`,
    ]);
  });

  it('Play of a URL that is not a URI reports 11100 and stops the call', async () => {
    const h = harness({ '/p': rcml('<Play>http://[bad</Play><Say>never</Say>') });
    const call = await callIn(h, '/p');
    expect(h.verbs(call.sid)).toEqual(['Play']);
    expect(h.notifications.map((n) => [n.code, n.log])).toEqual([['11100', 0]]);
    expect(call).toMatchObject({ status: 'completed', duration: 0 });
  });

  it('Pause waits its length (1 s by default)', async () => {
    const h = harness({ '/p': rcml('<Say>x</Say><Pause length="3"/><Pause/>') });
    const call = await callIn(h, '/p');
    expect(call.endTime).toBe(T0 + 67 + 4000);
  });
});

describe('Gather', () => {
  const menu = rcml(
    '<Gather action="/menu" numDigits="2" timeout="3"><Say>Press two digits please</Say></Gather><Say>Nothing</Say>',
  );

  it('interrupts its prompt at the first key and sends Digits to the action', async () => {
    const h = harness({ '/g': menu, '/menu': (req) => rcml(`<Say>You chose ${req.params.Digits}</Say>`) });
    h.engine.setParty('+1', {
      digits: [
        { at: 0.5, keys: '4' },
        { at: 1, keys: '2' },
      ],
    });
    const call = await callIn(h, '/g', '+1');
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(action).toMatchObject({ url: `${BASE}/menu`, method: 'POST', at: T0 + 1000 });
    expect(action.params).toMatchObject({ Digits: '42', CallSid: call.sid });
    expect(h.gathers).toEqual([
      {
        sid: expect.stringMatching(/^GA[0-9a-f]{32}$/),
        accountSid: h.engine.accountSid,
        orgSid: organizationSid(h.engine.accountSid),
        callSid: call.sid,
        dateCreated: expect.any(Number),
        preTimeout: 3,
        postTimeout: 3,
        actionOnEmptyResult: false,
        status: 'completed',
        reason: '',
        apiVersion: '2012-04-24',
        kind: 'dtmf',
        digitsCount: 2,
        digits: '42',
      },
    ]);
    // The shared fields first, in the order the record was always written.
    expect(Object.keys(h.gathers[0])).toEqual([
      'sid',
      'accountSid',
      'orgSid',
      'callSid',
      'dateCreated',
      'preTimeout',
      'postTimeout',
      'actionOnEmptyResult',
      'status',
      'reason',
      'apiVersion',
      'kind',
      'digitsCount',
      'digits',
    ]);
    // The prompt starts with the Gather and is cut short by the first key; the action's Say follows.
    expect(h.verbs(call.sid)).toEqual(['Gather', 'Gather/Say', 'Say']);
  });

  it('ends on finishOnKey, which is not part of Digits', async () => {
    const h = harness({ '/g': rcml('<Gather action="/a"/>'), '/a': rcml('<Hangup/>') });
    h.engine.setParty('+1', { digits: [{ at: 1, keys: '12#9' }] });
    await callIn(h, '/g', '+1');
    expect(h.requests.find((r) => r.kind === 'action')?.params.Digits).toBe('12');
  });

  it('falls through to the next verb on timeout, writing a failed record', async () => {
    const h = harness({ '/g': menu, '/menu': rcml('<Hangup/>') });
    const call = await callIn(h, '/g');
    expect(h.verbs(call.sid)).toEqual(['Gather', 'Gather/Say', 'Say']);
    expect(h.requests.some((r) => r.kind === 'action')).toBe(false);
    expect(h.gathers[0]).toMatchObject({ status: 'failed', reason: 'timeout', digits: '' });
    // Prompt (23 chars = 1.533 s) + 3 s timeout + "Nothing" (0.467 s).
    expect(call.endTime).toBe(T0 + 1533 + 3000 + 467);
  });

  it('lists its prompts as verbs nested in Gather at their start times, up to the first input', async () => {
    const h = harness({
      '/g': rcml(
        '<Gather timeout="1"><Say>123456789012345</Say><Pause length="3"/><Say>never heard</Say></Gather>',
      ),
    });
    h.engine.setParty('+1', { digits: [{ at: 2, keys: '5' }] });
    const call = await callIn(h, '/g', '+1');
    const verbs = h.events.flatMap((e) => (e.type === 'verb' ? [[e.verb, e.parent, e.at - T0]] : []));
    // Say (1 s) then Pause from 1 s, cut at 2 s by the key: the last prompt never starts.
    expect(verbs).toEqual([
      ['Gather', undefined, 0],
      ['Say', 'Gather', 0],
      ['Pause', 'Gather', 1000],
    ]);
    expect(h.verbs(call.sid)).toEqual(['Gather', 'Gather/Say', 'Gather/Pause']);
  });

  it('requests the action on empty input with actionOnEmptyResult', async () => {
    const h = harness({
      '/g': rcml('<Gather action="/a" actionOnEmptyResult="true" timeout="2"/>'),
      '/a': rcml('<Hangup/>'),
    });
    await callIn(h, '/g');
    expect(h.requests.find((r) => r.kind === 'action')?.params.Digits).toBe('');
    expect(h.gathers[0].actionOnEmptyResult).toBe(true);
  });

  it('waits timeout after each key (post timeout), then sends what it has', async () => {
    const h = harness({ '/g': rcml('<Gather action="/a" timeout="2"/>'), '/a': rcml('<Hangup/>') });
    h.engine.setParty('+1', {
      digits: [
        { at: 1, keys: '7' },
        { at: 2.5, keys: '8' },
      ],
    });
    await callIn(h, '/g', '+1');
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(action.params.Digits).toBe('78');
    expect(action.at).toBe(T0 + 4500);
  });

  it('recognises speech with input="speech" and writes a speech record', async () => {
    const h = harness({
      '/g': rcml('<Gather input="speech" action="/a" hints="sales,support" language="en-GB"/>'),
      '/a': rcml('<Hangup/>'),
    });
    h.engine.setParty('+1', { speech: [{ at: 1, text: 'sales please' }], digits: [{ at: 0.5, keys: '1' }] });
    await callIn(h, '/g', '+1');
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(action.params).toMatchObject({ SpeechResult: 'sales please', Confidence: '0.9' });
    // Both results go to the action, the unused one empty (as the platform sends them).
    expect(action.params.Digits).toBe('');
    expect(h.gathers[0]).toMatchObject({
      kind: 'speech',
      speechResult: 'sales please',
      language: 'en-GB',
      hints: 'sales,support',
      duration: 1,
      status: 'completed',
      reason: '',
      provider: 'simulated',
      preTimeout: 5,
      postTimeout: 5,
      actionOnEmptyResult: false,
      apiVersion: '2012-04-24',
      accountSid: h.engine.accountSid,
      sid: expect.stringMatching(/^GA[0-9a-f]{32}$/),
      dateCreated: expect.any(Number),
    });
    expect(h.gathers[0]).not.toHaveProperty('digitsCount');
  });

  it('loses keys pressed when nothing listens', async () => {
    const h = harness({ '/g': rcml('<Say>Welcome to the line</Say><Gather action="/a" timeout="1"/>') });
    h.engine.setParty('+1', { digits: [{ at: 0.2, keys: '5' }] });
    await callIn(h, '/g', '+1');
    expect(h.events.find((e) => e.type === 'input')).toMatchObject({ heard: false });
    expect(h.gathers[0].status).toBe('failed');
  });
});

describe('Record', () => {
  it('stops on a finishOnKey key and gives the action a real WAV recording', async () => {
    const h = harness({ '/r': rcml('<Record action="/done" maxLength="60"/>'), '/done': rcml('<Hangup/>') });
    h.engine.setParty('+1', {
      speech: [{ at: 1, text: 'this is my message' }],
      digits: [{ at: 4.5, keys: '#' }],
    });
    const call = await callIn(h, '/r', '+1');
    expect(h.recordings).toHaveLength(1);
    const { record, wav } = h.recordings[0];
    // Beep 0.5 s, then recording from 0.5 s to the key at 4.5 s.
    expect(record).toMatchObject({ callSid: call.sid, duration: 4, sid: expect.stringMatching(/^RE/) });
    expect(readWavInfo(wav)).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16, duration: 4 });
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(action.params).toMatchObject({ RecordingSid: record.sid, RecordingDuration: '4', Digits: '#' });
    expect(action.params.RecordingUrl).toContain(`${record.sid}.wav`);
  });

  it('stops after timeout seconds of silence, and at maxLength', async () => {
    const h = harness({
      '/r': rcml('<Record timeout="3" playBeep="false"/><Record maxLength="2" playBeep="false"/>'),
    });
    await callIn(h, '/r');
    expect(h.recordings.map((r) => r.record.duration)).toEqual([3, 2]);
  });

  it('on hang-up still writes the recording and requests the action with Digits=hangup', async () => {
    const h = harness({
      '/r': rcml('<Record action="/done" playBeep="false" timeout="100"/>'),
      '/done': rcml(''),
    });
    h.engine.setParty('+1', { hangupAfter: 6 });
    await callIn(h, '/r', '+1');
    expect(h.recordings[0].record.duration).toBe(6);
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({ Digits: 'hangup' });
  });
});

describe('Redirect, Hangup, Reject, Sms, unknown verbs', () => {
  it('Redirect resolves relative URLs against the document and replaces it', async () => {
    const h = harness({
      '/a/one': rcml('<Redirect method="GET">two</Redirect><Say>never</Say>'),
      '/a/two': rcml('<Say>Two</Say>'),
    });
    const call = await callIn(h, '/a/one');
    expect(h.requests[1]).toMatchObject({ kind: 'redirect', url: `${BASE}/a/two`, method: 'GET' });
    expect(h.verbs(call.sid)).toEqual(['Redirect', 'Say']);
  });

  it('Hangup ends the call; the end of a document hangs up too', async () => {
    const h = harness({
      '/h': rcml('<Say>Bye</Say><Hangup/><Say>never</Say>'),
      '/e': rcml('<Say>Bye</Say>'),
    });
    const a = await callIn(h, '/h');
    expect(h.verbs(a.sid)).toEqual(['Say', 'Hangup']);
    expect(a.status).toBe('completed');
    const b = await callIn(h, '/e', '+2', '+3');
    expect(b.status).toBe('completed');
  });

  it('Reject works only while ringing: the call ends busy for both reasons; skipped once answered', async () => {
    const h = harness({
      '/busy': rcml('<Reject reason="busy"/>'),
      '/rej': rcml('<Pause/><Reject/>'),
      '/late': rcml('<Say>Hi</Say><Reject/><Say>Still here</Say>'),
    });
    const busy = await callIn(h, '/busy', '+1', '+10');
    const rej = await callIn(h, '/rej', '+1', '+11');
    const late = await callIn(h, '/late', '+1', '+12');
    expect(busy).toMatchObject({ status: 'busy', duration: 0 });
    expect(busy.startTime).toBeUndefined();
    expect(rej).toMatchObject({ status: 'busy', duration: 0 });
    expect(late.status).toBe('completed');
    expect(h.verbs(late.sid)).toEqual(['Say', 'Reject', 'Say']);
    expect(h.notifications.map((n) => n.code)).toEqual(['13820']);
  });

  it('Sms writes a message record and sends SmsSid/SmsStatus to its action', async () => {
    const h = harness({
      '/sms': rcml('<Sms action="/sent" statusCallback="/sms-status">Your code is 1234</Sms><Say>x</Say>'),
      '/sent': rcml(''),
      '/sms-status': rcml(''),
    });
    const call = await callIn(h, '/sms', '+1', '+2');
    expect(h.messages).toEqual([
      expect.objectContaining({
        kind: 'sms',
        from: '+2',
        to: '+1',
        body: 'Your code is 1234',
        status: 'sent',
      }),
    ]);
    const action = h.requests.find((r) => r.kind === 'action')!;
    expect(action.params).toMatchObject({ SmsSid: h.messages[0].sid, SmsStatus: 'sent', CallSid: call.sid });
    const status = h.requests.find((r) => r.kind === 'sms-status-callback')!;
    expect(status).toMatchObject({ url: `${BASE}/sms-status`, method: 'POST' });
    expect(status.params).toMatchObject({
      SmsSid: h.messages[0].sid,
      SmsStatus: 'sent',
      Body: 'Your code is 1234',
    });
    expect(h.verbs(call.sid)).toEqual(['Sms']);
  });

  it('skips unknown verbs with a warning notification', async () => {
    const h = harness({ '/u': rcml('<Say>a</Say><Frobnicate/><Say>b</Say>') });
    const call = await callIn(h, '/u');
    expect(h.verbs(call.sid)).toEqual(['Say', 'Frobnicate', 'Say']);
    const runtime = h.notifications.filter((n) => n.code === '12210');
    expect(runtime.map((n) => n.log)).toEqual([1, 1]);
  });
});
