/**
 * What the web console shows live: the engine's records and events, fanned out to the console
 * streams of the account they belong to, and each recent call's events kept for its timeline.
 * Memory only and bounded: the store keeps the records; the verbs and requests of a call are
 * known only while the call is among the most recent ones of this process. With a relay, the
 * other nodes' messages for the accounts watched here are fanned out and remembered alike.
 */
import type { CallRecord, NotificationRecord, RecordSink } from '../../engine/records.js';
import type { EngineEvent } from '../../engine/types.js';

/** A call as the console draws it (times in ms of the engine's clock). */
export interface ConsoleCall {
  sid: string;
  parentCallSid?: string;
  direction: string;
  from: string;
  to: string;
  status: string;
  dateCreated: number;
  startTime?: number;
  endTime?: number;
  duration?: number;
  endedBy?: string;
}

/** One message of a console stream. */
export type ConsoleMessage =
  | { type: 'call'; call: ConsoleCall }
  | { type: 'event'; event: EngineEvent }
  | { type: 'notification'; notification: ConsoleNotification };

/** A notification as the console lists it. */
export interface ConsoleNotification {
  sid: string;
  callSid?: string;
  code: string;
  log: 0 | 1;
  message: string;
  url?: string;
  dateCreated: number;
}

/** Bounds of what the feed remembers. */
export interface ConsoleFeedLimits {
  /** Calls remembered (with their events), oldest forgotten first. Default 1,000. */
  calls?: number;
  /** Events kept per call; later ones are counted, not kept. Default 500. */
  eventsPerCall?: number;
}

interface Remembered {
  call: ConsoleCall;
  accountSid: string;
  events: EngineEvent[];
  dropped: number;
}

/** A console stream: its messages, and the end of the feed. */
export interface ConsoleSubscriber {
  message(message: ConsoleMessage): void;
  /** The engine closed: no more messages. */
  end(): void;
}

/** The engine's side of the console: a sink wrapper and an event listener feeding its streams. */
export interface ConsoleFeed {
  /** Wraps the engine's record sink: calls and notifications reach the console too. */
  wrapSink<S extends RecordSink>(sink: S): S;
  /** The engine's event listener. */
  onEvent(event: EngineEvent): void;
  /** The account's remembered calls, most recent first. */
  recentCalls(accountSid: string, limit?: number): ConsoleCall[];
  /** A remembered call of the account with its events; undefined when unknown or another's. */
  timeline(
    accountSid: string,
    callSid: string,
  ): { call: ConsoleCall; events: EngineEvent[]; dropped: number } | undefined;
  /** Streams the account's messages until the returned function is called or the feed closes. */
  subscribe(accountSid: string, subscriber: ConsoleSubscriber): () => void;
  /** Ends every stream (the engine closed). */
  close(): void;
}

/**
 * How the console feeds of a cluster's nodes share their live messages: a console served by one
 * node shows the calls of every node (`RedisConsoleRelay` in src/cluster). Without one, a
 * console shows the calls of the node serving it.
 */
export interface ConsoleRelay {
  /** Sends a message of this node's calls to the consoles of other nodes watching the account. */
  send(accountSid: string, message: ConsoleMessage): void;
  /**
   * Hears the messages of the other nodes' calls for accounts this node watches, as they came
   * over the wire (the feed checks their shape).
   */
  receive(handler: (accountSid: string, message: unknown) => void): () => void;
  /** A console stream of this node watches the account until `stop`. */
  watch(accountSid: string): { ready: Promise<void>; stop(): void };
}

function consoleCall(r: Readonly<CallRecord>): ConsoleCall {
  return {
    sid: r.sid,
    parentCallSid: r.parentCallSid,
    direction: r.direction,
    from: r.from,
    to: r.to,
    status: r.status,
    dateCreated: r.dateCreated,
    startTime: r.startTime,
    endTime: r.endTime,
    duration: r.duration,
    endedBy: r.endedBy,
  };
}

function consoleNotification(n: Readonly<NotificationRecord>): ConsoleNotification {
  return {
    sid: n.sid,
    callSid: n.callSid,
    code: n.code,
    log: n.log,
    message: n.message,
    url: n.url,
    dateCreated: n.dateCreated,
  };
}

/** Every call an event concerns: its own, and the leg's parent, the bridge's peer, the queue partner. */
function callsOfEvent(event: EngineEvent): string[] {
  // Every event is seen here: no closure or search for the one or two sids it names.
  const own: unknown = 'callSid' in event ? event.callSid : undefined;
  let other: unknown;
  if (event.type === 'leg') other = event.parentCallSid;
  else if (event.type === 'bridge') other = event.peerSid;
  else if (event.type === 'queue') other = (event.event as { partnerCallSid?: string }).partnerCallSid;
  const sids: string[] = typeof own === 'string' ? [own] : [];
  if (typeof other === 'string' && other !== own) sids.push(other);
  return sids;
}

/** The account an event concerns, when the event says it. */
function accountOfEvent(event: EngineEvent): string | undefined {
  return event.type === 'queue' ? event.event.accountSid : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A message another node sent, when it has a console message's shape (anything else is dropped). */
function relayed(m: unknown): ConsoleMessage | undefined {
  if (!isObject(m)) return undefined;
  if (m.type === 'call' && isObject(m.call) && typeof m.call.sid === 'string') return m as ConsoleMessage;
  if (m.type === 'event' && isObject(m.event) && typeof m.event.type === 'string') return m as ConsoleMessage;
  if (m.type === 'notification' && isObject(m.notification)) return m as ConsoleMessage;
  return undefined;
}

/**
 * Creates the feed; {@link ConsoleFeed.wrapSink} and `onEvent` go into the engine's options.
 * With `relay`, the feed sends its messages to the other nodes and shows theirs.
 */
export function createConsoleFeed(limits: ConsoleFeedLimits = {}, relay?: ConsoleRelay): ConsoleFeed {
  const maxCalls = limits.calls ?? 1000;
  const maxEvents = limits.eventsPerCall ?? 500;
  const calls = new Map<string, Remembered>();
  const listeners = new Map<string, Set<ConsoleSubscriber>>();
  const watches = new Map<string, { stop(): void }>();
  let closed = false;

  const fanOut = (accountSid: string, message: ConsoleMessage) => {
    for (const subscriber of listeners.get(accountSid) ?? []) subscriber.message(message);
  };
  const publish = (accountSid: string, message: ConsoleMessage) => {
    fanOut(accountSid, message);
    relay?.send(accountSid, message);
  };
  const rememberCall = (call: ConsoleCall, accountSid: string): Remembered => {
    let entry = calls.get(call.sid);
    if (!entry) {
      entry = { call, accountSid, events: [], dropped: 0 };
      calls.set(call.sid, entry);
      if (calls.size > maxCalls) calls.delete(calls.keys().next().value as string);
    } else entry.call = call;
    return entry;
  };
  const remember = (record: Readonly<CallRecord>) => rememberCall(consoleCall(record), record.accountSid);
  /** Keeps an event in the timeline of each remembered call it concerns; its account, if known. */
  const rememberEvent = (event: EngineEvent): string | undefined => {
    let accountSid = accountOfEvent(event);
    for (const sid of callsOfEvent(event)) {
      const entry = calls.get(sid);
      if (!entry) continue;
      accountSid ??= entry.accountSid;
      if (entry.events.length < maxEvents) entry.events.push(event);
      else entry.dropped++;
    }
    return accountSid;
  };
  const stopRelay = relay?.receive((accountSid, received) => {
    const message = relayed(received);
    if (closed || !message) return;
    if (message.type === 'call') rememberCall(message.call, accountSid);
    else if (message.type === 'event') rememberEvent(message.event);
    fanOut(accountSid, message);
  });

  return {
    wrapSink(sink) {
      return {
        ...sink,
        call(record) {
          const entry = remember(record);
          publish(entry.accountSid, { type: 'call', call: entry.call });
          sink.call?.(record);
        },
        notification(n) {
          publish(n.accountSid, { type: 'notification', notification: consoleNotification(n) });
          sink.notification?.(n);
        },
      };
    },
    onEvent(event) {
      const accountSid = rememberEvent(event);
      if (accountSid !== undefined) publish(accountSid, { type: 'event', event });
    },
    recentCalls(accountSid, limit = 200) {
      const out: ConsoleCall[] = [];
      for (const entry of calls.values()) if (entry.accountSid === accountSid) out.push(entry.call);
      return out.reverse().slice(0, limit);
    },
    timeline(accountSid, callSid) {
      const entry = calls.get(callSid);
      if (!entry || entry.accountSid !== accountSid) return undefined;
      return { call: entry.call, events: [...entry.events], dropped: entry.dropped };
    },
    subscribe(accountSid, subscriber) {
      if (closed) {
        subscriber.end();
        return () => {};
      }
      let set = listeners.get(accountSid);
      if (!set) {
        set = new Set();
        listeners.set(accountSid, set);
        if (relay) watches.set(accountSid, relay.watch(accountSid));
      }
      set.add(subscriber);
      return () => {
        set.delete(subscriber);
        if (set.size === 0 && listeners.get(accountSid) === set) {
          listeners.delete(accountSid);
          watches.get(accountSid)?.stop();
          watches.delete(accountSid);
        }
      };
    },
    close() {
      if (closed) return;
      closed = true;
      stopRelay?.();
      for (const watch of watches.values()) watch.stop();
      watches.clear();
      const all = [...listeners.values()].flatMap((set) => [...set]);
      listeners.clear();
      for (const subscriber of all) subscriber.end();
    },
  };
}
