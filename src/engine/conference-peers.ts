/**
 * How an engine's conference rooms span the nodes of a cluster. The engine defines this port;
 * `src/cluster` implements it over Redis. A room name of an account is claimed by one node, the
 * room's owner: it runs the room (start, end, seats, the room's record) for every participant;
 * another node whose calls join it keeps a mirror of the room holding its own calls, and tells
 * the owner of their joins, leaves and changes, while the owner tells it of the room's status.
 */

/** Who holds a room name: the node running the room, and the room's sid. */
export interface RoomClaim {
  node: string;
  sid: string;
}

/** How a participant takes part (the Conference noun's attributes). */
export interface SeatTerms {
  muted: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  beep: boolean;
}

/**
 * What the nodes tell each other about rooms (`sid`), in order per pair of nodes:
 * - `join`: a call of the sender asks for a seat (full at `max`), with its terms;
 * - `joined`: the owner's answer: `seated` (with the room's status), `full`, or `gone` (the
 *   room ended: claim the name again);
 * - `leave`: a call of the sender left its seat (hang-up, end of its wait, redirect);
 * - `update`: a call of the sender was muted or unmuted, held or resumed;
 * - `mute`: the owner was asked to mute a call of the receiver (the call's node applies it);
 * - `status`: the owner's room started or ended: the receiver's waiting calls wake.
 */
export type RoomSignal =
  | {
      t: 'join';
      sid: string;
      callSid: string;
      terms: SeatTerms;
      max: number;
      hold: boolean;
      joinedAt: number;
    }
  | { t: 'joined'; sid: string; callSid: string; answer: 'seated' | 'full' | 'gone'; status?: RoomStatus }
  | { t: 'leave'; sid: string; callSid: string }
  | { t: 'update'; sid: string; callSid: string; muted: boolean; hold: boolean }
  | { t: 'mute'; sid: string; callSid: string; muted: boolean }
  | { t: 'status'; sid: string; status: RoomStatus };

type RoomStatus = 'init' | 'in-progress' | 'completed';

/** What the engine answers to the other nodes. */
export interface RoomSignalHandler {
  /** A signal of node `from`. */
  signal(from: string, signal: RoomSignal): void;
  /** `node` died: its calls left every room, and the rooms it ran are over. */
  nodeDead(node: string): void;
}

export interface ConferencePeers {
  /** This node's name. */
  readonly nodeId: string;
  /**
   * Claims the account's room name for this node's room `sid`, unless another claim holds it
   * (or holds it still: `stale` names a claim this node knows to be over, replaced if it is the
   * one held). Resolves with the claim that holds the name now.
   */
  claimRoom(accountSid: string, name: string, sid: string, stale?: RoomClaim): Promise<RoomClaim>;
  /** Lets the name go, if room `sid` of this node still holds it. Never rejects. */
  releaseRoom(accountSid: string, name: string, sid: string): Promise<void>;
  /** Sends a signal to `node` (in order with the others sent to it; lost if it is dead). */
  sendRoom(node: string, signal: RoomSignal): void;
  /** Sets who hears the other nodes' signals and deaths. */
  serveRooms(handler: RoomSignalHandler): void;
}
