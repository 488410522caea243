import type { HttpMethod } from '../rcml/model.js';
import { type BridgeOptions, type BridgeResult, bridgeCalls } from './bridge.js';
import { Call } from './call.js';
import type { Clock } from './clock/clock.js';
import { type Joined, joinRoom, leaveRoom } from './conference-join.js';
import type { Conference, Participant, ParticipantOptions } from './conferences.js';
import { type LoadedDocument, loadDocument } from './documents.js';
import type { InterruptReason } from './errors.js';
import { isReleased, type LegOptions, ringLegs, type ScreeningResult, screenLeg, startLeg } from './legs.js';
import { setHeld } from './media.js';
import type { ScriptSignal } from './script-signal.js';
import type { EngineEventListener, RequestKind } from './types.js';
import type { Leg, LegRing, VerbServices } from './verbs/types.js';

/** A leg handle given back by a verb: it is a call of this engine (see `startLeg`). */
function callOf(leg: Leg): Call {
  if (leg instanceof Call) return leg;
  throw new TypeError('not a call leg of this engine');
}

/**
 * The services of one call, bound to it for its verbs (`VerbContext.services`): the verbs see
 * this narrow interface, the services below see the call.
 */
export class CallServices implements VerbServices {
  constructor(readonly call: Call) {}

  get ended(): boolean {
    return this.call.ended;
  }

  get clock(): Clock {
    return this.call.rt.clock;
  }

  get listener(): EngineEventListener | undefined {
    return this.call.rt.listener;
  }

  get engine(): object {
    return this.call.rt;
  }

  interrupt(reason: InterruptReason): void {
    this.call.interrupt(reason);
  }

  loadDocument(
    url: string,
    method: HttpMethod,
    kind: RequestKind,
    params: Record<string, string> | undefined,
  ): LoadedDocument | Promise<LoadedDocument> {
    return loadDocument(this.call, url, method, kind, params);
  }

  setHeld(held: boolean): void {
    setHeld(this.call, held);
  }

  startLeg(options: LegOptions): Leg {
    return startLeg(this.call, options);
  }

  legRoom(): number {
    return this.call.rt.liveCallRoom?.(this.call.record.accountSid) ?? Number.POSITIVE_INFINITY;
  }

  ringLegs(legs: readonly Leg[], signal: ScriptSignal): Promise<LegRing> {
    return ringLegs(legs.map(callOf), signal).then((ring) => {
      if (ring.winner) this.call.outboundCallSid = ring.winner.record.sid;
      return ring;
    });
  }

  screenLeg(leg: Leg, url: string, method: HttpMethod): Promise<ScreeningResult> {
    return screenLeg(callOf(leg), url, method);
  }

  isReleased(leg: Leg): boolean {
    return isReleased(callOf(leg));
  }

  bridgeLeg(leg: Leg, options: BridgeOptions): Promise<BridgeResult> {
    return bridgeCalls(this.call, callOf(leg), options);
  }

  bridgeWith(other: VerbServices, options: BridgeOptions): Promise<BridgeResult> {
    if (!(other instanceof CallServices)) throw new TypeError('not a call of this engine');
    return bridgeCalls(this.call, other.call, options);
  }

  leaveBridge(): void {
    this.call.bridge?.end('modified');
  }

  joinConference(
    name: string,
    max: number,
    options: ParticipantOptions,
    signal?: ScriptSignal,
  ): Joined | Promise<Joined> {
    return joinRoom(this.call, name, max, options, signal);
  }

  leaveConference(room: Conference, seat: Participant): void {
    leaveRoom(room, seat);
  }
}
