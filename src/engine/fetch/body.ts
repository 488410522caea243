/** A body read past its byte cap when the cap is a hard limit. */
export class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`response body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** How much of a body to read: `fail` past the cap, or `truncate` (keep the first bytes). */
export interface BodyCap {
  bytes: number;
  past: 'fail' | 'truncate';
}
