import { createHash, randomFillSync } from 'node:crypto';

/** Draws sids: a prefix (`CA`, `RE`, `GA`, `NO`, `SM`...) followed by 32 lowercase hex digits. */
export interface SidGenerator {
  next(prefix: string): string;
}

/** The two ASCII hex digits of each byte value, at `2 * byte`. */
const HEX_DIGITS = Buffer.from(
  Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
  'latin1',
);

/**
 * Where sids are spelled out before they become strings. A sid made with `+` is a tree of
 * string pieces (about 190 bytes for a seeded one, kept as long as the sid); spelled out in a
 * buffer it is one flat string of about 50 bytes.
 */
const spelling = Buffer.alloc(64);

/** Writes the prefix of a sid; the offset of its first hex digit. */
function spellPrefix(prefix: string): number {
  return prefix.length <= 32 ? spelling.write(prefix, 0, 'latin1') : -1;
}

function spellByte(at: number, byte: number): void {
  spelling[at] = HEX_DIGITS[2 * byte];
  spelling[at + 1] = HEX_DIGITS[2 * byte + 1];
}

function spellWord(at: number, word: number): void {
  spellByte(at, word >>> 24);
  spellByte(at + 2, (word >>> 16) & 255);
  spellByte(at + 4, (word >>> 8) & 255);
  spellByte(at + 6, word & 255);
}

/** Deterministic generator (sfc32) so that a seeded run always yields the same sids. */
export function seededSids(seed: number): SidGenerator {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const nextWord = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextWord();
  return {
    next(prefix) {
      const at = spellPrefix(prefix);
      if (at < 0) throw new RangeError(`sid prefix too long: '${prefix.slice(0, 40)}'`);
      for (let i = 0; i < 4; i++) spellWord(at + 8 * i, nextWord());
      return spelling.toString('latin1', 0, at + 32);
    },
  };
}

/** Draws from `sids`, passing over every sid `taken` says is held. */
export function skippingSids(sids: SidGenerator, taken: (sid: string) => boolean): SidGenerator {
  return {
    next(prefix) {
      for (let tries = 0; tries < 1_000_000; tries++) {
        const sid = sids.next(prefix);
        if (!taken(sid)) return sid;
      }
      throw new Error(`no free ${prefix} sid within a million draws`);
    },
  };
}

/** Random bytes drawn at once for many sids: one system call per 256 sids, not per sid. */
const RANDOM_POOL_BYTES = 4096;

/** Cryptographically random sids, for servers. */
export function randomSids(): SidGenerator {
  const pool = Buffer.allocUnsafe(RANDOM_POOL_BYTES);
  let used = RANDOM_POOL_BYTES;
  return {
    next(prefix) {
      if (used === RANDOM_POOL_BYTES) {
        randomFillSync(pool);
        used = 0;
      }
      used += 16;
      const at = spellPrefix(prefix);
      if (at < 0) throw new RangeError(`sid prefix too long: '${prefix.slice(0, 40)}'`);
      for (let i = 0; i < 16; i++) spellByte(at + 2 * i, pool[used - 16 + i]);
      return spelling.toString('latin1', 0, at + 32);
    },
  };
}

/**
 * The sid of a routed number that was given none: `PN` and 32 hex digits of a digest of the
 * number, so the same number keeps its sid across runs and restarts.
 */
export function numberSid(number: string): string {
  return `PN${createHash('sha256').update(`number:${number}`).digest('hex').slice(0, 32)}`;
}

/** Organization sids by account sid: an engine serves a few accounts, asked over and over. */
const organizationSids = new Map<string, string>();

/**
 * The sid of an account's organization (`OR` + 32 hex digits). Each account belongs to one,
 * its default organization, whose sid follows from the account's: the same wherever and
 * whenever it is asked, with nothing to store.
 */
export function organizationSid(accountSid: string): string {
  // Every Gather record carries it: remembered, as a digest costs more than the rest of the record.
  let sid = organizationSids.get(accountSid);
  if (sid === undefined) {
    sid = `OR${createHash('sha256').update(`organization:${accountSid}`).digest('hex').slice(0, 32)}`;
    if (organizationSids.size >= 1024) organizationSids.clear();
    organizationSids.set(accountSid, sid);
  }
  return sid;
}
