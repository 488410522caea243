import type { RoomSignal } from '../engine/conference-peers.js';
import type { LegTerms, PairEndedBy, RemoteOffer } from '../engine/queues/peers.js';

/**
 * What the nodes of a cluster tell each other about cross-node matches. `id` names one match
 * (both nodes' pairings); `from` is the sending node.
 * - `offer`: a call arriving on `from` was matched with a call waiting on the receiver.
 * - `accept` / `refuse`: the waiting call took the match (with its terms) or was gone.
 * - `ready`: the sender's side ran its join documents.
 * - `left`: the sender's side left (hang-up, live redirect, failure) or its time limit passed.
 * - `flush`: a marker a node sends itself to learn that everything sent before has been read.
 * - `room`: news of a conference room spanning nodes (see `RoomSignal`; `id` is empty).
 */
export type PeerSignal =
  | { t: 'offer'; id: string; from: string; offer: RemoteOffer }
  | { t: 'accept'; id: string; from: string; terms: LegTerms }
  | { t: 'refuse'; id: string; from: string }
  | { t: 'ready'; id: string; from: string }
  | { t: 'left'; id: string; from: string; endedBy: PairEndedBy }
  | { t: 'flush'; id: string; from: string }
  | { t: 'room'; id: string; from: string; room: RoomSignal };

const TYPES = new Set(['offer', 'accept', 'refuse', 'ready', 'left', 'flush', 'room']);

/** Decodes a signal read from Redis; undefined for anything malformed (ignored, never thrown). */
export function decodeSignal(raw: string): PeerSignal | undefined {
  try {
    const value = JSON.parse(raw) as Partial<PeerSignal> | null;
    if (!value || typeof value !== 'object') return undefined;
    if (typeof value.t !== 'string' || !TYPES.has(value.t)) return undefined;
    if (typeof value.id !== 'string' || typeof value.from !== 'string') return undefined;
    if (value.t === 'room') {
      const room = (value as { room?: Partial<RoomSignal> | null }).room;
      if (!room || typeof room.t !== 'string' || typeof room.sid !== 'string') return undefined;
    }
    return value as PeerSignal;
  } catch {
    return undefined;
  }
}
