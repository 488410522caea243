/** Codes of {@link QueueError}. */
export type QueueErrorCode =
  | 'invalid-name'
  | 'invalid-request'
  | 'invalid-max-size'
  | 'invalid-sid'
  | 'unknown-queue'
  | 'already-waiting';

/** A queue operation refused: the code says why, the message says what and where. */
export class QueueError extends Error {
  override readonly name = 'QueueError';
  constructor(
    readonly code: QueueErrorCode,
    message: string,
  ) {
    super(message);
  }
}
