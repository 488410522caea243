/** Real calls over SIP: the service behind `rcml serve --sip`, and the text-to-speech port. */
export { decodeWav, encodeWav } from './audio/decode.js';
export { type DeferredTelephony, deferredTelephony } from './deferred-telephony.js';
export type { MediaStats } from './media/protocol.js';
export type { SipClientAccount, SipClientDirectory } from './sip/registrar.js';
export { ManualSipTimers, realSipTimers, type SipTimers } from './sip/timers.js';
export {
  type InboundCalls,
  type SipService,
  type SipServiceOptions,
  startSipService,
} from './sip-service.js';
export type { SipTrunk } from './sip-trunk.js';
export { createEspeakTts, type EspeakOptions } from './tts/espeak.js';
export type { SpeechRequest, TextToSpeech } from './tts/port.js';
