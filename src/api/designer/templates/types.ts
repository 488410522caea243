/** A gallery template: the platform's Template record plus its speech settings and project. */
export interface Template {
  /** `TL` and 32 digits. */
  id: string;
  name: string;
  /** May contain HTML. */
  description: string;
  /** `voice`, `sms` or `ussd`. */
  tags: Array<'voice' | 'sms' | 'ussd'>;
  /** Text-to-speech voice and language of its prompts; speech-recognition language and input. */
  speech: {
    tts: { voice: string; language: string };
    asr: { language: string; inputType: 'dtmf' | 'speech' | 'dtmf speech' };
  };
  /** The project JSON an application made from it starts with. */
  project: Record<string, unknown>;
}
