/** Is this a media file the platform plays (WAV in PCM, A-law or µ-law; MP4)? */
import { mediaKindOf, mediaProblem } from '../../engine/media-file.js';

/**
 * Why a media file is not usable, or undefined when it is. The file name's extension names the
 * kind (`.mp4`, else WAV); the designer takes any rate, channel count and sample size of those
 * encodings, as its own uploads always did.
 */
export function wavProblem(bytes: Uint8Array, filename = 'media.wav'): string | undefined {
  return mediaProblem(bytes, mediaKindOf(filename) ?? 'wav', { strict: false });
}
