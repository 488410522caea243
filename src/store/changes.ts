/**
 * How the nodes of a cluster tell each other that a shared record changed, so that what a node
 * keeps in memory from the store (a compiled designer build, the routing of a Call Queuing
 * number) follows a write made through another node. A notice names the record, never its
 * contents: the node that hears it reads the store again.
 */

/** One committed write of a shared record. */
export interface ChangeNotice {
  /** What kind of record, e.g. `designer-app`, `callqueue-number`. */
  area: string;
  accountSid: string;
  /** Which record of the area (an application sid, a phone number). */
  key: string;
}

/** What a node does with the changes other nodes made. */
export interface ChangeListener {
  /**
   * A record of `area` changed on another node: forget or re-read it (the promise, if any,
   * settles once done).
   */
  changed(notice: ChangeNotice): void | Promise<void>;
  /**
   * Notices may have been missed (the connection they come through was lost and is back):
   * forget, or read again, everything kept from the store.
   */
  reset(): void | Promise<void>;
}

/**
 * The port. With one node there is nobody to tell: {@link localChanges}. A cluster's
 * implementation publishes through Redis (`src/cluster/changes.ts`).
 */
export interface SharedChanges {
  /**
   * Tells every other node that a record changed; call it once the write is committed. Never
   * rejects: a notice that cannot be sent is reported to the implementation's error hook.
   */
  publish(notice: ChangeNotice): Promise<void>;
  /** Hears the notices of other nodes (never this node's own); returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void;
}

/** A single node's changes: nothing to tell, nothing to hear. */
export const localChanges: SharedChanges = {
  publish: async () => {},
  subscribe: () => () => {},
};
