import { decode, encode } from './g711.js';
import type { Codec } from './protocol.js';

/**
 * G.711 by table, for the conference mix that converts every member's frame each tick: 256
 * decoded values and 65,536 encoded bytes per codec, built once from `g711.ts` on first use,
 * so a frame converts without allocating.
 */
const decoding = new Map<Codec, Int16Array>();
const encoding = new Map<Codec, Uint8Array>();

function decodeTable(codec: Codec): Int16Array {
  let table = decoding.get(codec);
  if (!table) {
    table = decode(
      codec,
      Uint8Array.from({ length: 256 }, (_, i) => i),
    );
    decoding.set(codec, table);
  }
  return table;
}

function encodeTable(codec: Codec): Uint8Array {
  let table = encoding.get(codec);
  if (!table) {
    // Indexed by the sample's 16 bits read unsigned.
    const all = Int16Array.from({ length: 65536 }, (_, i) => (i << 16) >> 16);
    table = encode(codec, all);
    encoding.set(codec, table);
  }
  return table;
}

/** Decodes `bytes` into `out` from `offset`. */
export function decodeInto(codec: Codec, bytes: Uint8Array, out: Int16Array, offset = 0): void {
  const table = decodeTable(codec);
  for (let i = 0; i < bytes.length; i++) out[offset + i] = table[bytes[i]];
}

/** Encodes `pcm` into `out` (same length). */
export function encodeInto(codec: Codec, pcm: Int16Array, out: Uint8Array): void {
  const table = encodeTable(codec);
  for (let i = 0; i < pcm.length; i++) out[i] = table[pcm[i] & 0xffff];
}
