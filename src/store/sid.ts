import { randomBytes } from 'node:crypto';

/** Makes a new sid for a prefix (`AC`, `CA`, `RE`, `GA`, `NO`, `AP`...). */
export type SidFactory = (prefix: string) => string;

/** A random sid: the prefix and 32 lowercase hex digits. */
export const randomSid: SidFactory = (prefix) => prefix + randomBytes(16).toString('hex');

/** Deterministic sids for tests: the prefix and the counter in 32 hex digits. */
export function sequentialSids(start = 1): SidFactory {
  let next = start;
  return (prefix) => prefix + (next++).toString(16).padStart(32, '0');
}

/** `AC` followed by 32 hex digits. */
export const ACCOUNT_SID_PATTERN = /^AC[0-9a-fA-F]{32}$/;
