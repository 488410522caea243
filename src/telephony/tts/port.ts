/** What `Say` asks for: the text and the verb's `voice` and `language`. */
export interface SpeechRequest {
  text: string;
  /** `man` or `woman` (RCML's voices). */
  voice: string;
  /** BCP 47 tag, e.g. `en`, `en-GB`, `es`. */
  language: string;
}

/**
 * The text-to-speech port: turns text into 8 kHz, 16-bit, mono PCM. The default runs espeak-ng
 * (`createEspeakTts`); a cloud service can implement the same interface.
 */
export interface TextToSpeech {
  synthesize(request: SpeechRequest): Promise<Int16Array>;
}
