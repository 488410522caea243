import type { MediaSource } from '../../engine/ports/call-line.js';
import type { TextToSpeech } from '../tts/port.js';
import { decodeWav } from './decode.js';
import { beep, silence } from './tones.js';

/**
 * The 8 kHz PCM of a source the engine plays (to a line or a whole room). A fetched WAV is
 * decoded once per `decoded` map (by URL) when one is given; `what` names the player in errors.
 */
export async function sourcePcm(
  source: MediaSource,
  tts: TextToSpeech,
  what: string,
  decoded?: Map<string, Int16Array>,
): Promise<Int16Array> {
  switch (source.kind) {
    case 'speech':
      return tts.synthesize(source);
    case 'audio': {
      if (!source.bytes) throw new Error(`${what}: no audio fetched for ${source.url}`);
      let pcm = decoded?.get(source.url);
      if (!pcm) {
        pcm = decodeWav(source.bytes);
        decoded?.set(source.url, pcm);
      }
      return pcm;
    }
    case 'silence':
      return silence(source.seconds);
    case 'beep':
      return beep(source.seconds);
    case 'digits':
      return silence(source.digits.length * 0.1);
  }
}
