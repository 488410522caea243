// Public API of the call engine.

export {
  Bridge,
  type BridgeEnd,
  type BridgeOptions,
  type BridgeRecording,
  type BridgeResult,
  bridgeCalls,
} from './bridge.js';
export type { Call, CallBridge, MediaState } from './call.js';
export type { ScriptStart } from './call-machine.js';
export type { AcceptCallOptions, InboundVoice } from './call-setups.js';
export type { Clock, TimerHandle } from './clock/clock.js';
export { RealClock } from './clock/real-clock.js';
export { DEFAULT_EPOCH, VirtualClock } from './clock/virtual-clock.js';
export type {
  ConferencePeers,
  RoomClaim,
  RoomSignal,
  RoomSignalHandler,
  SeatTerms,
} from './conference-peers.js';
export type { ConferenceInfo, ConferenceStatus, ParticipantInfo } from './conferences.js';
export { createCallParamsSchema } from './create-call-schema.js';
export { iso, rfc2822 } from './dates.js';
export { createEngine, Engine, type EngineOptions } from './engine.js';
export { EngineError, type EngineErrorCode, Interrupted, type InterruptReason } from './errors.js';
export type { FetchRequest } from './fetcher.js';
export {
  type BodyUse,
  EgressDeniedError,
  type EgressPolicy,
  FETCH_DEFAULTS,
  type FetcherCloseOptions,
  type HttpFetcherOptions,
  type OutgoingHook,
  type OutgoingRequest,
  redactUrl,
} from './fetcher.js';
export {
  type LegOptions,
  type RingResult,
  ringLegs,
  type ScreeningResult,
  screenLeg,
  startLeg,
} from './legs.js';
export { setHeld, setMuted } from './media.js';
export {
  MEDIA_CONTENT_TYPE,
  type MediaKind,
  mediaKindOf,
  mediaLength,
  mediaProblem,
} from './media-file.js';
export { type ModifyCallInput, type ModifyCallParams, modifyCallParamsSchema } from './modify-call-schema.js';
export { checkMp4, type Mp4Check, writeMp4 } from './mp4.js';
export type {
  CallLine,
  CallLineEvents,
  LineEndReason,
  LineRecording,
  MediaDirection,
  MediaHandle,
  MediaSource,
  PlayOutcome,
  RecordingEnd,
  RecordOptions,
} from './ports/call-line.js';
export type {
  ConferenceMixer,
  DialAttempt,
  DialEvents,
  DialFailure,
  DialRequest,
  LineBridge,
  RecordedAudio,
  Telephony,
} from './ports/telephony.js';
export * from './records.js';
export { defaultSettings, type EngineSettings, speakingSeconds } from './settings.js';
export { numberSid, organizationSid, randomSids, type SidGenerator, seededSids } from './sids.js';
export { SIGNATURE_HEADER, signedWith, validateRequest, webhookSignature } from './signature.js';
export type * from './types.js';
export { registerVerb, type VerbRegistry } from './verbs/index.js';
export { NEXT, type VerbContext, type VerbHandler, type VerbOutcome } from './verbs/types.js';
export { readWavInfo, WAV_SAMPLE_RATE, type WavInfo, writeWav } from './wav.js';
export { checkWav, type WavCheck, type WavCheckOptions, type WavEncoding } from './wav-check.js';
