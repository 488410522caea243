import {
  type CallLine,
  type CallLineEvents,
  type CallStatus,
  createEngine,
  type LineEndReason,
  type LineRecording,
  type MediaSource,
  type PlayOutcome,
  type RecordOptions,
  writeWav,
} from 'rcml-engine';

/** How the fake far end answers prompts: the keys it presses when it hears a text. */
export type CallerScript = Record<string, string>;

/**
 * A media server's channel, in memory: it logs what the engine asks of it, "plays" each source
 * in a hundredth of its length, and a scripted caller presses keys when it hears a prompt.
 */
export class InMemoryLine implements CallLine {
  readonly log: string[] = [];
  /** Resolves with the call's final status when the engine ends the line. */
  readonly ended: Promise<CallStatus>;
  private events: CallLineEvents | undefined;
  private settle: (status: CallStatus) => void = () => {};

  constructor(private readonly caller: CallerScript = {}) {
    this.ended = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  attach(events: CallLineEvents): void {
    this.events = events;
  }

  answer(): void {
    this.log.push('answer');
  }

  end(status: CallStatus, reason?: LineEndReason): void {
    this.log.push(reason ? `end ${status} (${reason})` : `end ${status}`);
    this.settle(status);
  }

  setDirection(direction: string): void {
    this.log.push(`direction ${direction}`);
  }

  mute(muted: boolean): void {
    this.log.push(muted ? 'mute' : 'unmute');
  }

  play(source: MediaSource, done: (outcome: PlayOutcome) => void) {
    this.log.push(`play ${source.kind === 'speech' ? `"${source.text}"` : source.kind}`);
    const keys = source.kind === 'speech' ? this.caller[source.text] : undefined;
    // The caller presses while the prompt plays: the engine stops the play (barge-in).
    if (keys) setTimeout(() => this.events?.input({ kind: 'dtmf', keys }), 1);
    const timer = setTimeout(() => done('done'), 10 * seconds(source));
    return {
      stop: () => {
        clearTimeout(timer);
        this.log.push('stop');
      },
    };
  }

  record(options: RecordOptions, done: (recording: LineRecording) => void) {
    this.log.push(`record up to ${options.maxLength} s`);
    const finish = (endedBy: LineRecording['endedBy']) => done({ wav: writeWav(1), duration: 1, started: true, endedBy });
    const timer = setTimeout(() => finish('silence'), 10);
    return {
      stop: () => {
        clearTimeout(timer);
        finish('stopped');
      },
    };
  }

  sendDigits(digits: string): void {
    this.log.push(`send ${digits}`);
  }

  /** The caller hangs up (a BYE; a CANCEL while it rings). */
  hangUp(): void {
    this.events?.hangup();
  }
}

/** Seconds a source would last (speech at 15 characters a second). */
function seconds(source: MediaSource): number {
  if (source.kind === 'speech') return source.text.length / 15;
  if (source.kind === 'digits') return source.digits.length / 2;
  return source.seconds;
}

/** Runs an IVR call on an in-memory line: the caller presses 1 at the menu. */
export async function run() {
  const engine = createEngine({ clock: 'real' });
  engine.registerHandler('http://app.test/ivr', () => ({
    status: 200,
    contentType: 'text/xml',
    body: '<Response><Gather action="/menu" numDigits="1"><Say>Press 1 for sales.</Say></Gather></Response>',
  }));
  engine.registerHandler('http://app.test/menu', (req) => ({
    status: 200,
    contentType: 'text/xml',
    body: `<Response><Say>You pressed ${req.params.Digits}.</Say><Hangup/></Response>`,
  }));
  engine.setNumber('+15550100', { voiceUrl: 'http://app.test/ivr' });

  const line = new InMemoryLine({ 'Press 1 for sales.': '1' });
  const call = engine.acceptCall({ line, from: '+15551111', to: '+15550100' });
  const status = await line.ended;
  await engine.close();
  return { call: engine.getCall(call.sid), status, log: line.log };
}
