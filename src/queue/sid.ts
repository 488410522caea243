import { randomBytes } from 'node:crypto';

const QUEUE_SID = /^QU[0-9a-f]{32}$/;

/** Whether `sid` has the shape of a queue sid: `QU` + 32 lowercase hex digits. */
export function isQueueSid(sid: string): boolean {
  return QUEUE_SID.test(sid);
}

/** A random queue sid, for servers. */
export function randomQueueSid(): string {
  return 'QU' + randomBytes(16).toString('hex');
}

/**
 * A deterministic queue sid generator for simulations and tests: the same seed gives the same
 * sequence (a 32-bit xorshift per hex word, so distinct seeds give distinct sequences).
 */
export function seededQueueSids(seed: number): () => string {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return () => {
    let hex = '';
    for (let i = 0; i < 4; i++) hex += next().toString(16).padStart(8, '0');
    return 'QU' + hex;
  };
}
