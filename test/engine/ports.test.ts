import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/engine/clock/clock.js';
import { VirtualClock } from '../../src/engine/clock/virtual-clock.js';
import { writeMp4 } from '../../src/engine/mp4.js';
import type {
  CallLine,
  CallLineEvents,
  LineRecording,
  MediaSource,
  PlayOutcome,
  RecordOptions,
} from '../../src/engine/ports/call-line.js';
import type { DialRequest, Telephony } from '../../src/engine/ports/telephony.js';
import { defaultSettings } from '../../src/engine/settings.js';
import { SimulatedLine } from '../../src/engine/simulated-line.js';
import { writeWav } from '../../src/engine/wav.js';
import { BASE, harness, rcml } from './harness.js';

/** A line of the test's: logs what it is asked; plays last 1 s each on the engine clock. */
class TestLine implements CallLine {
  readonly log: string[] = [];
  events: CallLineEvents | undefined;
  needsAudioBytes = false;
  bytes: Uint8Array | undefined;
  /** Fails every play at once, as a SIP line does with audio it cannot decode (hangs up after 3). */
  failPlays = false;
  private failed = 0;

  constructor(private readonly clock: () => Clock) {}

  attach(events: CallLineEvents): void {
    this.events = events;
  }
  answer(): void {
    this.log.push('answer');
  }
  end(status: string, reason?: string): void {
    this.log.push(reason ? `end ${status} ${reason}` : `end ${status}`);
  }
  setDirection(direction: string): void {
    this.log.push(`direction ${direction}`);
  }
  mute(muted: boolean): void {
    this.log.push(`mute ${muted}`);
  }
  play(source: MediaSource, done: (outcome: PlayOutcome) => void) {
    this.log.push(
      `play ${source.kind === 'speech' ? `${source.text} ${source.voice} ${source.language}` : source.kind}`,
    );
    if (source.kind === 'audio') this.bytes = source.bytes;
    if (this.failPlays) {
      // Past a few failures the far end gives up, so a Play that loops on them still ends.
      if (++this.failed > 3) queueMicrotask(() => this.events?.hangup());
      else void Promise.reject(new Error('undecodable')).catch(() => done('failed'));
      return { stop: () => this.log.push('stop') };
    }
    const clock = this.clock();
    const timer = clock.setTimeout(() => done('done'), 1000);
    return {
      stop: () => {
        clock.clearTimeout(timer);
        this.log.push('stop');
      },
    };
  }
  record(options: RecordOptions, done: (recording: LineRecording) => void) {
    this.log.push(
      `record ${options.maxLength} ${options.timeout} ${options.finishOnKey} ${options.playBeep}`,
    );
    const clock = this.clock();
    const finish = (endedBy: LineRecording['endedBy']) =>
      done({
        wav: writeWav(2),
        duration: 2,
        started: true,
        endedBy,
        key: endedBy === 'key' ? '#' : undefined,
      });
    const timer = clock.setTimeout(() => finish('key'), 2000);
    return {
      stop: () => {
        clock.clearTimeout(timer);
        finish('stopped');
      },
    };
  }
  sendDigits(digits: string): void {
    this.log.push(`send ${digits}`);
  }
  prepare(sources: readonly MediaSource[]): void {
    this.log.push(`prepare ${sources.map((s) => (s.kind === 'speech' ? s.text : s.kind)).join('|')}`);
  }
}

describe('the CallLine port', () => {
  it('an accepted call rings, is answered by the first answering verb, plays, holds and hangs up', async () => {
    const h = harness({
      '/in': rcml('<Pause length="2"/><Say voice="woman" language="de">Hallo</Say><Hold/><Resume/><Hangup/>'),
    });
    const line = new TestLine(() => h.engine.clock);
    h.engine.setNumber('+15550100', { voiceUrl: `${BASE}/in` });
    const call = h.engine.acceptCall({
      line,
      from: '+15551111',
      to: '+15550100',
      headers: { 'X-Tenant': 'a' },
    });
    await h.engine.runUntilIdle();
    expect(line.log).toEqual([
      'prepare Hallo',
      'play silence',
      'answer',
      'play Hallo woman de',
      'direction sendonly',
      'direction sendrecv',
      'end completed',
    ]);
    expect(h.engine.getCall(call.sid)).toMatchObject({ status: 'completed', duration: 1 });
    expect(h.requests[0].params['SipHeader_X-Tenant']).toBe('a');
  });

  it('a key stops the Gather prompt (barge-in) and reaches the action', async () => {
    const h = harness({
      '/in': rcml('<Gather action="/menu" numDigits="1"><Say>Press 1</Say><Say>or 2</Say></Gather>'),
      '/menu': (req) => rcml(`<Say>${req.params.Digits}</Say>`),
    });
    const line = new TestLine(() => h.engine.clock);
    h.engine.setNumber('+15550100', { voiceUrl: `${BASE}/in` });
    h.engine.acceptCall({ line, from: '+15551111', to: '+15550100' });
    await h.engine.advance(0.5);
    line.events?.input({ kind: 'dtmf', keys: '2' });
    await h.engine.runUntilIdle();
    expect(line.log).toEqual([
      'prepare Press 1|or 2',
      'answer',
      'play Press 1 man en',
      'stop',
      'prepare 2',
      'play 2 man en',
      'end completed',
    ]);
  });

  it('a speech Gather on a line without a recogniser times out as if nothing was said', async () => {
    const h = harness({
      '/in': rcml('<Gather input="speech" timeout="3" action="/heard"/><Say>Nothing heard</Say>'),
      '/heard': rcml(''),
    });
    const line = new TestLine(() => h.engine.clock);
    h.engine.setNumber('+15550100', { voiceUrl: `${BASE}/in` });
    h.engine.acceptCall({ line, from: '+15551111', to: '+15550100' });
    await h.engine.advance(2.9);
    expect(line.log).toEqual(['prepare Nothing heard', 'answer']);
    await h.engine.runUntilIdle();
    expect(line.log.slice(2)).toEqual(['play Nothing heard man en', 'end completed']);
    expect(h.requests.some((r) => r.url.endsWith('/heard'))).toBe(false);
  });

  it('runs an explicit voice URL (a client placing the call) for its account, its fallback on failure', async () => {
    const h = harness({
      '/down': () => 'not xml <',
      '/fallback': rcml('<Say>Hi</Say>'),
      '/number': rcml(''),
    });
    // The called number is routed elsewhere: the voice given wins, `to` is only reported.
    h.engine.setNumber('+15550100', { voiceUrl: `${BASE}/number` });
    const line = new TestLine(() => h.engine.clock);
    const call = h.engine.acceptCall({
      line,
      from: 'client:alice',
      to: '+15550100',
      accountSid: `AC${'b'.repeat(32)}`,
      voice: { url: `${BASE}/down`, method: 'GET', fallbackUrl: `${BASE}/fallback` },
    });
    await h.engine.runUntilIdle();
    expect(h.requests.map((r) => [r.url, r.method, r.params.From, r.params.To])).toEqual([
      [`${BASE}/down`, 'GET', 'client:alice', '+15550100'],
      [`${BASE}/fallback`, 'POST', 'client:alice', '+15550100'],
    ]);
    expect(h.requests[0].params).toMatchObject({ Direction: 'inbound', AccountSid: `AC${'b'.repeat(32)}` });
    expect(line.log.at(-1)).toBe('end completed');
    const record = h.engine.getCall(call.sid);
    expect(record).toMatchObject({ status: 'completed', accountSid: `AC${'b'.repeat(32)}` });
    expect(record?.phoneNumberSid).toBeUndefined();
  });

  it('Reject tells the line busy or rejected; an unknown number and the far end hanging up end it', async () => {
    const h = harness({ '/busy': rcml('<Reject reason="busy"/>'), '/no': rcml('<Reject/>') });
    h.engine.setNumber('+1', { voiceUrl: `${BASE}/busy` });
    h.engine.setNumber('+2', { voiceUrl: `${BASE}/no` });
    const lines = [1, 2, 3].map(() => new TestLine(() => h.engine.clock));
    h.engine.acceptCall({ line: lines[0], from: '+9', to: '+1' });
    h.engine.acceptCall({ line: lines[1], from: '+9', to: '+2' });
    const unknown = h.engine.acceptCall({ line: lines[2], from: '+9', to: '+3' });
    await h.engine.runUntilIdle();
    expect(lines.map((l) => l.log.at(-1))).toEqual([
      'end busy',
      'end busy rejected',
      'end failed unknown-number',
    ]);
    expect(h.engine.getCall(unknown.sid)?.status).toBe('failed');

    h.engine.registerHandler(`${BASE}/long`, () => ({
      status: 200,
      contentType: 'text/xml',
      body: rcml('<Say>a long text to say</Say>'),
    }));
    h.engine.setNumber('+4', { voiceUrl: `${BASE}/long` });
    const hangs = new TestLine(() => h.engine.clock);
    const call = h.engine.acceptCall({ line: hangs, from: '+9', to: '+4' });
    await h.engine.advance(0.5);
    hangs.events?.hangup();
    await h.engine.runUntilIdle();
    expect(h.engine.getCall(call.sid)).toMatchObject({ status: 'completed', endedBy: 'caller' });
    expect(hangs.log.slice(-2)).toEqual(['stop', 'end completed']);
  });

  it('Record keeps the line’s audio; a hang-up stops it and still reaches the action', async () => {
    const h = harness({
      '/rec': rcml('<Record action="/saved" maxLength="9" timeout="4" finishOnKey="-1" playBeep="false"/>'),
      '/saved': rcml(''),
    });
    h.engine.setNumber('+1', { voiceUrl: `${BASE}/rec` });
    const line = new TestLine(() => h.engine.clock);
    h.engine.acceptCall({ line, from: '+9', to: '+1' });
    await h.engine.runUntilIdle();
    expect(line.log).toContain('record 9 4  false');
    expect(h.recordings[0].record.duration).toBe(2);
    expect(h.recordings[0].wav).toEqual(writeWav(2));
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({
      Digits: '#',
      RecordingDuration: '2',
    });

    const h2 = harness({ '/rec': rcml('<Record action="/saved"/>'), '/saved': rcml('') });
    h2.engine.setNumber('+1', { voiceUrl: `${BASE}/rec` });
    const hangs = new TestLine(() => h2.engine.clock);
    h2.engine.acceptCall({ line: hangs, from: '+9', to: '+1' });
    await h2.engine.advance(1);
    hangs.events?.hangup();
    await h2.engine.runUntilIdle();
    expect(h2.requests.find((r) => r.kind === 'action')?.params).toMatchObject({ Digits: 'hangup' });
    expect(h2.recordings).toHaveLength(1);
  });

  it('a line that plays real audio gets the bytes of each Play', async () => {
    const wav = writeWav(1.25);
    const h = harness({ '/play': rcml('<Play loop="2">/tone.wav</Play>') });
    let fetches = 0;
    h.engine.registerHandler(`${BASE}/tone.wav`, () => {
      fetches++;
      return { status: 200, contentType: 'audio/wav', body: wav };
    });
    h.engine.setNumber('+1', { voiceUrl: `${BASE}/play` });
    const line = new TestLine(() => h.engine.clock);
    line.needsAudioBytes = true;
    h.engine.acceptCall({ line, from: '+9', to: '+1' });
    await h.engine.runUntilIdle();
    expect(line.bytes).toEqual(wav);
    expect(line.log.filter((l) => l === 'play audio')).toHaveLength(2);
    expect(fetches).toBe(1);
  });
});

describe('a line that cannot play a source', () => {
  it('ends a looping Play or Say at its first failure and goes on with the document', async () => {
    const h = harness({
      '/in': rcml('<Play loop="0">/clip.mp4</Play><Say loop="0">Hello</Say><Say loop="2">Bye</Say><Hangup/>'),
    });
    h.engine.registerHandler(`${BASE}/clip.mp4`, () => ({
      status: 200,
      contentType: 'video/mp4',
      body: writeMp4(1),
    }));
    const line = new TestLine(() => h.engine.clock);
    line.needsAudioBytes = true;
    line.failPlays = true;
    h.engine.setNumber('+15550100', { voiceUrl: `${BASE}/in` });
    const call = h.engine.acceptCall({ line, from: '+15551111', to: '+15550100' });
    await h.engine.runUntilIdle();
    expect(line.log).toEqual([
      'prepare Hello|Bye',
      'answer',
      'play audio',
      'play Hello man en',
      'play Bye man en',
      'end completed',
    ]);
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');
  });
});

describe('the Telephony port', () => {
  it('dials legs, connects and records the bridge, sends digits, through the given telephony', async () => {
    const dialed: DialRequest[] = [];
    const lines: TestLine[] = [];
    const log: string[] = [];
    let clock: Clock | undefined;
    const telephony = (simulated: Telephony): Telephony => ({
      dial(request, events) {
        dialed.push(request);
        if (request.to !== '+2') return simulated.dial(request, events);
        events.ringing();
        const line = new TestLine(() => clock!);
        lines.push(line);
        const timer = clock!.setTimeout(() => events.answered(line), 3000);
        return { cancel: () => clock!.clearTimeout(timer) };
      },
      connect(_a, _b, options) {
        log.push(`connect ${options.record}`);
        const start = clock!.now();
        return {
          disconnect(done) {
            const duration = (clock!.now() - start) / 1000;
            log.push(`disconnect ${duration}`);
            done({ wav: writeWav(0.25), duration });
          },
        };
      },
      room: (sid, name) => simulated.room(sid, name),
    });
    const h = harness(
      {
        '/d': rcml(
          '<Dial record="true" action="/after"><Number sendDigits="9">+2</Number><Number>+3</Number></Dial>',
        ),
        '/after': rcml(''),
      },
      { telephony },
    );
    clock = h.engine.clock;
    h.engine.setParty('+3', { outcome: 'busy', answerAfter: 1 });
    h.engine.setParty('+15550001', { hangupAfter: 10 });
    h.engine.setNumber('+1', { voiceUrl: `${BASE}/d` });
    const call = h.engine.incomingCall('+15550001', '+1');
    await h.engine.runUntilIdle();
    expect(dialed.map((d) => [d.to, d.call.parentCallSid, d.timeout])).toEqual([
      ['+2', call.sid, 30],
      ['+3', call.sid, 30],
    ]);
    expect(lines[0].log).toEqual(['answer', 'send 9', 'end completed']);
    expect(log).toEqual(['connect true', 'disconnect 7']);
    expect(h.recordings[0].wav).toEqual(writeWav(0.25));
    expect(h.requests.find((r) => r.kind === 'action')?.params).toMatchObject({
      DialCallStatus: 'completed',
    });
  });
});

describe('a dial answered at once', () => {
  it('rings first, then is answered: an outbound API call runs its document on the dialed line', async () => {
    const lines: TestLine[] = [];
    const h = harness(
      { '/out': rcml('<Say>Hi</Say>') },
      {
        telephony: (simulated) => ({
          connect: simulated.connect.bind(simulated),
          room: simulated.room.bind(simulated),
          dial(_request, events) {
            const line = new TestLine(() => h.engine.clock);
            lines.push(line);
            events.answered(line);
            return { cancel() {} };
          },
        }),
      },
    );
    const call = h.engine.createCall({ From: '+1', To: '+2', Url: `${BASE}/out` });
    await h.engine.runUntilIdle();
    expect(h.statuses(call.sid)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
    expect(lines[0].log).toEqual(['answer', 'prepare Hi', 'play Hi man en', 'end completed']);
  });
});

describe('the simulated line as a CallLine of its own', () => {
  it('plays for the simulated length on the engine clock, and a stopped recording has its length', async () => {
    const clock = new VirtualClock();
    const line = new SimulatedLine({ clock, settings: defaultSettings }, {});
    const played: string[] = [];
    line.play({ kind: 'speech', text: 'fifteen letters', voice: 'man', language: 'en' }, (o) =>
      played.push(o),
    );
    const stopped = line.play({ kind: 'silence', seconds: 0.5 }, (o) => played.push(`stopped ${o}`));
    stopped.stop();
    await clock.runUntil(clock.now() + 999);
    expect(played).toEqual([]);
    await clock.runUntil(clock.now() + 1);
    expect(played).toEqual(['done']);

    const recordings: LineRecording[] = [];
    const options = { maxLength: 10, timeout: 5, finishOnKey: '#', playBeep: true, beepSeconds: 0.5 };
    const handle = line.record(options, (r) => recordings.push(r));
    await clock.runUntil(clock.now() + 2500);
    handle.stop();
    line.record({ ...options, playBeep: false, maxLength: 1 }, (r) => recordings.push(r));
    await clock.runUntilIdle();
    expect(recordings.map((r) => [r.duration, r.started, r.endedBy, r.wav.length])).toEqual([
      [2, true, 'stopped', writeWav(2).length],
      [1, true, 'max-length', writeWav(1).length],
    ]);
  });
});
