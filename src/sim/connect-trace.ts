import type { SessionDetailRecord } from '../engine/records.js';
import type { EngineConnectEvent } from '../engine/types.js';

/** A leg, bridge, conference, media or modification event in a trace (`at` in seconds). */
export type TraceConnectEvent = { at: number } & DistributiveOmit<EngineConnectEvent, 'at'>;

/** A session detail record (Hold/Resume re-invitation) in a trace. */
export type TraceSessionDetail = { at: number } & Omit<SessionDetailRecord, 'dateCreated'>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One readable timeline line for a connect event. */
export function describeConnectEvent(e: EngineConnectEvent): string {
  switch (e.type) {
    case 'leg':
      return `dial leg ${e.callSid} to ${e.to}`;
    case 'bridge':
      return e.action === 'start'
        ? `bridged with ${e.peerSid}`
        : `bridge with ${e.peerSid} ended (${e.reason})`;
    case 'conference': {
      const tone = e.tone ? ` on ${e.tone.on} (${e.tone.seconds} s)` : '';
      return `conference ${e.name} (${e.conferenceSid}): ${e.action}${tone}`;
    }
    case 'media':
      return `media ${e.held ? 'on hold' : 'not held'}, ${e.muted ? 'muted' : 'not muted'}`;
    case 'modify':
      return `modified: ${Object.entries(e.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`;
  }
}
