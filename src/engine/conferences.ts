import type { Call } from './call.js';

/** Status of a conference room: waiting for a starter, running, or over. */
export type ConferenceStatus = 'init' | 'in-progress' | 'completed';

/** A participant as inspection shows it. */
export interface ParticipantInfo {
  callSid: string;
  /** Muted in the conference (`muted` attribute or `muteParticipant`). */
  muted: boolean;
  /** On hold (Hold verb). */
  hold: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  /** Ms since epoch. */
  joinedAt: number;
}

/** A conference room as inspection shows it. Times are ms since epoch. */
export interface ConferenceInfo {
  sid: string;
  accountSid: string;
  friendlyName: string;
  status: ConferenceStatus;
  dateCreated: number;
  dateUpdated: number;
  participants: ParticipantInfo[];
}

/** A call in a room. `wake` interrupts its current wait (the room started or ended). */
export interface Participant {
  call: Call;
  muted: boolean;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  /** A tone sounds in the running room when this participant enters or leaves. */
  beep: boolean;
  joinedAt: number;
}

/** One conference room: participants by call sid, started by a starter, ended by an ender. */
export class Conference {
  status: ConferenceStatus = 'init';
  dateUpdated: number;
  readonly participants = new Map<string, Participant>();

  constructor(
    readonly sid: string,
    readonly accountSid: string,
    readonly name: string,
    readonly dateCreated: number,
  ) {
    this.dateUpdated = dateCreated;
  }

  /** Inspection snapshot. */
  info(): ConferenceInfo {
    return {
      sid: this.sid,
      accountSid: this.accountSid,
      friendlyName: this.name,
      status: this.status,
      dateCreated: this.dateCreated,
      dateUpdated: this.dateUpdated,
      participants: [...this.participants.values()].map((p) => ({
        callSid: p.call.record.sid,
        muted: p.muted,
        hold: p.call.media.held,
        startConferenceOnEnter: p.startConferenceOnEnter,
        endConferenceOnExit: p.endConferenceOnExit,
        joinedAt: p.joinedAt,
      })),
    };
  }
}

/** The rooms of one engine: by sid, and the current room per account and name. */
export class ConferenceRooms {
  private readonly bySid = new Map<string, Conference>();
  private readonly current = new Map<string, Conference>();

  /** The open room named `name` (a room that has ended is replaced by a new one). */
  open(accountSid: string, name: string, newSid: () => string, now: number): Conference {
    const key = `${accountSid}\n${name}`;
    let room = this.current.get(key);
    if (!room || room.status === 'completed') {
      room = new Conference(newSid(), accountSid, name, now);
      this.current.set(key, room);
      this.bySid.set(room.sid, room);
    }
    return room;
  }

  get(sid: string): Conference | undefined {
    return this.bySid.get(sid);
  }

  list(): Conference[] {
    return [...this.bySid.values()];
  }
}
