import { Worker } from 'node:worker_threads';
import type { CodecSettings, MediaCommand, MediaEvent, MediaPath, MediaStats } from './protocol.js';
import { MediaRoom } from './room-channel.js';
import type { MediaWorkerData } from './worker.js';

/** Options of `startMediaHost`. */
export interface MediaHostOptions {
  /** Address RTP sockets bind to. Default 127.0.0.1. */
  host?: string;
  /** RTP port range (even ports are used). Default 20000-29999. */
  ports?: { min: number; max: number };
}

/** How a recording ended, and what was heard. */
export interface RecordResult {
  pcm: Int16Array;
  reason: 'max-length' | 'silence' | 'stopped';
  /** Ms of silence at the end (the part the silence timeout waited through). */
  silentMs: number;
}

/** A recording under way: its result, and how to end it early (a key, a hang-up). */
export interface Recording {
  readonly done: Promise<RecordResult>;
  stop(): void;
}

/**
 * The worker's file: the compiled `.js` beside this one, or, when running from the TypeScript
 * sources (tests, `tsx`), the `.ts` file loaded through tsx inside the worker.
 */
function spawn(data: MediaWorkerData): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const url = new URL('./worker.ts', here).href;
    const code = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url)}); })`;
    return new Worker(code, { eval: true, workerData: data });
  }
  return new Worker(new URL('./worker.js', here), { workerData: data });
}

/**
 * The main thread's side of the media worker: opens one channel per call and turns the
 * worker's events into promises. An engine stall never stalls audio: the pacing loop runs in
 * the worker.
 */
export class MediaHost {
  private readonly worker: Worker;
  private nextId = 1;
  private nextOp = 1;
  private readonly channels = new Map<number, MediaChannel>();
  private readonly opening = new Map<
    number,
    { resolve: (port: number) => void; reject: (err: Error) => void }
  >();
  private readonly rooms = new Map<number, MediaRoom>();
  private statsWaiters: Array<(stats: MediaStats) => void> = [];
  private closed = false;

  constructor(options: MediaHostOptions = {}) {
    const ports = options.ports ?? { min: 20000, max: 29999 };
    this.worker = spawn({ host: options.host ?? '127.0.0.1', min: ports.min, max: ports.max });
    this.worker.unref();
    this.worker.on('message', (event: MediaEvent) => this.onEvent(event));
    this.worker.on('error', (err) => {
      for (const waiter of this.opening.values()) waiter.reject(err);
      this.opening.clear();
    });
  }

  /** Opens a call's media: binds its RTP port (for the SDP answer) and starts its frames. */
  async open(settings: CodecSettings & MediaPath): Promise<MediaChannel> {
    if (this.closed) throw new Error('the media host is closed');
    const id = this.nextId++;
    const port = await new Promise<number>((resolve, reject) => {
      this.opening.set(id, { resolve, reject });
      this.send({ type: 'open', id, ...settings });
    });
    const channel = new MediaChannel(this, id, port);
    this.channels.set(id, channel);
    return channel;
  }

  /** Opens a conference room in the worker (see `MediaRoom`). */
  openRoom(): MediaRoom {
    const room = new MediaRoom(this, this.nextId++);
    if (this.closed) room.closed();
    else this.rooms.set(room.id, room);
    return room;
  }

  /** @internal */
  forgetRoom(id: number): void {
    this.rooms.delete(id);
  }

  /** Pacing loop and receiver figures since the last call (then reset). */
  stats(): Promise<MediaStats> {
    return new Promise((resolve) => {
      this.statsWaiters.push(resolve);
      this.send({ type: 'stats' });
    });
  }

  /** @internal */
  send(command: MediaCommand, transfer?: ArrayBuffer[]): void {
    if (this.closed) return;
    this.worker.postMessage(command, transfer);
  }

  /** @internal */
  op(): number {
    return this.nextOp++;
  }

  /** @internal */
  forget(id: number): void {
    this.channels.delete(id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.send({ type: 'shutdown' });
    this.closed = true;
    for (const channel of this.channels.values()) channel.closed();
    this.channels.clear();
    for (const room of this.rooms.values()) room.closed();
    this.rooms.clear();
    await this.worker.terminate();
  }

  private onEvent(event: MediaEvent): void {
    switch (event.type) {
      case 'opened':
        this.opening.get(event.id)?.resolve(event.port);
        this.opening.delete(event.id);
        return;
      case 'open-failed':
        this.opening.get(event.id)?.reject(new Error(event.reason));
        this.opening.delete(event.id);
        return;
      case 'stats': {
        const waiters = this.statsWaiters;
        this.statsWaiters = [];
        for (const w of waiters) w(event.stats);
        return;
      }
      case 'room-played':
        this.rooms.get(event.room)?.onPlayed(event.play, event.stopped);
        return;
      default:
        this.channels.get(event.id)?.onEvent(event);
    }
  }
}

/** One call's media, seen from the main thread. */
export class MediaChannel {
  /** Keys heard as RFC 4733 events. */
  onDigit: ((key: string) => void) | undefined;
  /** No RTP came from the far end for the path's `rtpTimeoutMs` (`seconds` of quiet). */
  onRtpTimeout: ((seconds: number) => void) | undefined;
  /** The system refused to send this call's RTP (said once per call). */
  onSendFailed: ((reason: string) => void) | undefined;
  private readonly plays = new Map<number, (stopped: boolean) => void>();
  private readonly records = new Map<number, (result: RecordResult) => void>();
  private isClosed = false;

  constructor(
    private readonly host: MediaHost,
    readonly id: number,
    /** Local RTP port, for the SDP answer. */
    readonly port: number,
  ) {}

  /** Changes where RTP goes and which ways it flows (hold, resume, new far-end address). */
  update(path: MediaPath, codec?: CodecSettings): void {
    this.host.send({ type: 'update', id: this.id, ...path, codec });
  }

  /**
   * Plays 8 kHz PCM `loop` times (0: until stopped); resolves true when stopped early (by
   * `signal`, another play, or the call closing), false when it played to the end.
   */
  play(pcm: Int16Array, loop: number, signal?: AbortSignal, key?: string): Promise<boolean> {
    if (this.isClosed || signal?.aborted) return Promise.resolve(true);
    const play = this.host.op();
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.host.send({ type: 'stop', id: this.id, play });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.plays.set(play, (stopped) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(stopped);
      });
      this.host.send({ type: 'play', id: this.id, play, pcm, loop, key });
    });
  }

  /** Records the far end until `maxMs`, `silenceMs` of silence (0: no limit), or `stop()`. */
  record(maxMs: number, silenceMs: number): Recording {
    const record = this.host.op();
    const done = new Promise<RecordResult>((resolve) => {
      if (this.isClosed) resolve({ pcm: new Int16Array(0), reason: 'stopped', silentMs: 0 });
      else this.records.set(record, resolve);
    });
    this.host.send({ type: 'record', id: this.id, record, maxMs, silenceMs });
    return { done, stop: () => this.host.send({ type: 'stop-record', id: this.id, record }) };
  }

  /** Bridges this call's media to `peer`'s (each hears the other); `null` takes the bridge apart. */
  link(peer: MediaChannel | null): void {
    if (this.isClosed) return;
    this.host.send({ type: 'link', id: this.id, peer: peer ? peer.id : null });
  }

  /**
   * Bridges this call's media to `peer`'s and records both sides mixed to mono until the bridge
   * is taken apart (`link(null)`, either call closing), `maxMs` or `stop()`.
   */
  linkRecorded(peer: MediaChannel, maxMs: number): Recording {
    const record = this.host.op();
    const done = new Promise<RecordResult>((resolve) => {
      if (this.isClosed) resolve({ pcm: new Int16Array(0), reason: 'stopped', silentMs: 0 });
      else this.records.set(record, resolve);
    });
    if (!this.isClosed)
      this.host.send({ type: 'link', id: this.id, peer: peer.id, record: { record, maxMs } });
    return { done, stop: () => this.host.send({ type: 'stop-record', id: this.id, record }) };
  }

  /** Sends keys to the far end (RFC 4733 telephone-events, or in-band tones); `w` pauses 0.5 s. */
  sendDigits(digits: string): void {
    if (!this.isClosed) this.host.send({ type: 'digits', id: this.id, digits });
  }

  /** Ends the call's media: plays stop, a recording under way ends with what it has. */
  close(): void {
    if (this.isClosed) return;
    this.host.send({ type: 'close', id: this.id });
    // Plays end at once; a recording's audio comes back from the worker first.
    for (const done of this.plays.values()) done(true);
    this.plays.clear();
    this.isClosed = true;
    if (this.records.size === 0) this.host.forget(this.id);
  }

  /** @internal The host closed: everything pending ends. */
  closed(): void {
    this.isClosed = true;
    for (const done of this.plays.values()) done(true);
    this.plays.clear();
    for (const done of this.records.values())
      done({ pcm: new Int16Array(0), reason: 'stopped', silentMs: 0 });
    this.records.clear();
  }

  /** @internal */
  onEvent(event: MediaEvent): void {
    switch (event.type) {
      case 'played':
        this.plays.get(event.play)?.(event.stopped);
        this.plays.delete(event.play);
        return;
      case 'recorded':
        this.records.get(event.record)?.({ pcm: event.pcm, reason: event.reason, silentMs: event.silentMs });
        this.records.delete(event.record);
        if (this.isClosed && this.records.size === 0) this.host.forget(this.id);
        return;
      case 'digit':
        this.onDigit?.(event.key);
        return;
      case 'rtp-timeout':
        this.onRtpTimeout?.(event.seconds);
        return;
      case 'send-failed':
        this.onSendFailed?.(event.reason);
        return;
    }
  }
}
