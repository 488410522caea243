/** Tunable constants of simulated media. Every figure is documented in docs/engine.md. */
export interface EngineSettings {
  /** Speaking rate of Say and of simulated speech, characters per second. Default 15 (~150 words/min). */
  sayCharsPerSecond: number;
  /** Length of a Play whose audio cannot be fetched or is not a WAV, seconds. Default 5. */
  playDefaultSeconds: number;
  /** Length of Record's beep, seconds. Default 0.5. */
  beepSeconds: number;
  /** `Confidence` reported with simulated speech. Default 0.9. */
  speechConfidence: number;
  /** ASR provider name written on speech gather records. Default `simulated`. */
  speechProvider: string;
  /** URL of a recording's WAV file, as given to actions (`RecordingUrl`). */
  recordingUrl(accountSid: string, recordingSid: string): string;
}

export const defaultSettings: EngineSettings = {
  sayCharsPerSecond: 15,
  playDefaultSeconds: 5,
  beepSeconds: 0.5,
  speechConfidence: 0.9,
  speechProvider: 'simulated',
  recordingUrl: (accountSid, sid) =>
    `http://127.0.0.1/2012-04-24/Accounts/${accountSid}/Recordings/${sid}.wav`,
};

/** Seconds a text takes to say at the configured rate (ms precision). */
export function speakingSeconds(text: string, settings: EngineSettings): number {
  return Math.round((text.length / settings.sayCharsPerSecond) * 1000) / 1000;
}
