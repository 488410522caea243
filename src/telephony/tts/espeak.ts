import { decodeWav } from '../audio/decode.js';
import { SpeechCache } from './cache.js';
import type { SpeechRequest, TextToSpeech } from './port.js';
import { run } from './run.js';
import { espeakVoice } from './voices.js';

/** Options of `createEspeakTts`. */
export interface EspeakOptions {
  /** Directory of the disk cache. Default `<tmpdir>/rcml-tts`. */
  cacheDir?: string;
  /** Bytes the disk cache may hold; the oldest files go first. Default 64 MiB. */
  cacheBytes?: number;
  /** The espeak-ng command. Default `espeak-ng`. */
  espeak?: string;
  /** The sox command used to resample to 8 kHz; without it (not installed) wavefile resamples. Default `sox`. */
  sox?: string;
}

/** Longest text synthesised in one go (characters). */
const MAX_TEXT = 4096;
const LIMITS = { maxBytes: 64 * 1024 * 1024, timeoutMs: 20_000 };

/**
 * The default TTS: Debian's espeak-ng, run asynchronously, its 22.05 kHz WAV converted to
 * 8 kHz by sox (or wavefile when sox is missing). Results are cached on disk by a hash of
 * (voice, language, text) and the same text asked for twice at once is synthesised once.
 */
export function createEspeakTts(options: EspeakOptions = {}): TextToSpeech & { check(): Promise<void> } {
  const espeak = options.espeak ?? 'espeak-ng';
  const sox = options.sox ?? 'sox';
  const cache = new SpeechCache(options.cacheDir, options.cacheBytes);
  let voices: Promise<Set<string>> | undefined;
  let soxMissing = false;

  const knownVoices = (): Promise<Set<string>> => {
    voices ??= run(espeak, ['--voices'], '', LIMITS)
      .then(
        (out) =>
          new Set(
            out
              .toString()
              .split('\n')
              .slice(1)
              .map((l) => l.trim().split(/\s+/)[1])
              .filter(Boolean),
          ),
      )
      .catch(() => new Set<string>());
    return voices;
  };

  const synthesise = async (request: SpeechRequest): Promise<Int16Array> => {
    const voice = espeakVoice(request, await knownVoices());
    const wav = await run(
      espeak,
      ['-v', voice, '--stdout', '--stdin'],
      request.text.slice(0, MAX_TEXT),
      LIMITS,
    );
    if (!soxMissing) {
      try {
        const raw = await run(
          sox,
          ['-t', 'wav', '-', '-t', 'raw', '-r', '8000', '-e', 'signed-integer', '-b', '16', '-c', '1', '-'],
          wav,
          LIMITS,
        );
        return new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1).slice();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        soxMissing = true;
      }
    }
    return decodeWav(wav);
  };

  return {
    async check() {
      await run(espeak, ['--version'], '', LIMITS);
    },
    synthesize(request) {
      return cache.get(request, () => synthesise(request));
    },
  };
}
