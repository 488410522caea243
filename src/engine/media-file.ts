/**
 * Media files the platform accepts, told apart by extension as the platform's designer does:
 * `.wav` (linear PCM, A-law or µ-law) and `.mp4`. The content must still be what the extension
 * says; anything else is refused with the reason.
 */
import { checkMp4 } from './mp4.js';
import { readWavInfo } from './wav.js';
import { checkWav, type WavCheckOptions } from './wav-check.js';

/** Kind of a media file, from its extension. */
export type MediaKind = 'wav' | 'mp4';

/** `Content-Type` a media file is served with (`video/mp4` as the platform's designer serves it). */
export const MEDIA_CONTENT_TYPE: Readonly<Record<MediaKind, string>> = { wav: 'audio/wav', mp4: 'video/mp4' };

/** The kind a file name's extension names, or undefined. */
export function mediaKindOf(filename: string): MediaKind | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return ext === 'wav' || ext === 'mp4' ? ext : undefined;
}

/** Why bytes are not a usable media file of that kind, or undefined when they are. */
export function mediaProblem(
  bytes: Uint8Array,
  kind: MediaKind,
  options: WavCheckOptions = {},
): string | undefined {
  const check = kind === 'wav' ? checkWav(bytes, options) : checkMp4(bytes);
  if (check.ok) return undefined;
  return `${kind === 'wav' ? 'not a WAV' : 'not an MP4'} file the platform plays: ${check.reason}`;
}

/** Seconds of a WAV (any encoding, from its header) or an MP4 (from `mvhd`); undefined for anything else. */
export function mediaLength(bytes: Uint8Array): number | undefined {
  const wav = readWavInfo(bytes);
  if (wav) return wav.duration;
  const mp4 = checkMp4(bytes);
  return mp4.ok ? mp4.seconds : undefined;
}
