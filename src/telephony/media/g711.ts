import alawmulaw from 'alawmulaw';
import type { Codec } from './protocol.js';

/** Samples in one 20 ms frame at 8 kHz. */
export const FRAME_SAMPLES = 160;

/** Silence as each codec writes it (RFC 3551 / G.711). */
export const SILENCE_BYTE: Record<Codec, number> = { PCMU: 0xff, PCMA: 0xd5 };

/** 16-bit PCM to G.711 bytes. */
export function encode(codec: Codec, pcm: Int16Array): Uint8Array {
  return codec === 'PCMU' ? alawmulaw.mulaw.encode(pcm) : alawmulaw.alaw.encode(pcm);
}

/** G.711 bytes to 16-bit PCM. */
export function decode(codec: Codec, bytes: Uint8Array): Int16Array {
  return codec === 'PCMU' ? alawmulaw.mulaw.decode(bytes) : alawmulaw.alaw.decode(bytes);
}
