/** Codes of errors the engine throws at its API boundary. */
export type EngineErrorCode =
  | 'invalid-params'
  | 'unknown-call'
  | 'unknown-number'
  | 'clock-not-virtual'
  | 'closed'
  /** Live modification of a call that is not a live call of an RCML application. */
  | 'not-modifiable'
  | 'unknown-conference';

/** Error thrown by engine API calls; `code` is stable, `message` names the offending field. */
export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/**
 * Why a running verb was interrupted: the call ended, its script was replaced, input came, or
 * its queue wait ended (the call was matched or its wait timed out), or a live modification
 * replaced its script (`modified`), or its conference started or ended (`conference`).
 */
export type InterruptReason = 'ended' | 'replaced' | 'input' | 'dequeued' | 'modified' | 'conference';

/**
 * Thrown into a verb's pending wait when it is interrupted. One shared instance per reason
 * (`Interrupted.of`): interruptions are control flow, not failures, and need no stack.
 */
export class Interrupted extends Error {
  private static readonly shared = new Map<InterruptReason, Interrupted>();

  private constructor(readonly reason: InterruptReason) {
    super(`interrupted: ${reason}`);
    this.name = 'Interrupted';
  }

  static of(reason: InterruptReason): Interrupted {
    let value = Interrupted.shared.get(reason);
    if (!value) {
      value = new Interrupted(reason);
      Interrupted.shared.set(reason, value);
    }
    return value;
  }
}
