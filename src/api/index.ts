// Public API of the api layer.
export { type AppOptions, type CallQueueAppOptions, createApp } from './app.js';
export { hashPassword, verifyPassword } from './autoattendant/password.js';
export { checkWav, sanitizeFileName, type WavCheck } from './autoattendant/wav-check.js';
export {
  type CallQueueRoutes,
  type CallQueueRoutesOptions,
  type CallQueueRouting,
  CallQueueService,
  createCallQueueRoutes,
  engineRouting,
  type LiveCallInfo,
} from './callqueue/index.js';
export * from './designer/index.js';
export {
  type DesignerApplication,
  type DesignerApplicationOptions,
  serveDesignerProject,
} from './designer-application.js';
export { createEngineControl, type EngineControlOptions } from './engine-control.js';
export {
  createEngineApp,
  type EngineApp,
  type EngineAppOptions,
  type EngineServer,
  type EngineServerOptions,
  recordingFileUrl,
  type ServerEngineOptions,
  startEngineServer,
} from './engine-server.js';
export { ENTERPRISE_ERRORS } from './enterprise/codes.js';
export { EnterpriseError } from './enterprise/errors.js';
export type { EnterpriseAreaOptions } from './enterprise/mount.js';
export { isoSeconds } from './enterprise/timestamps.js';
export { ApiError } from './http/errors.js';
export {
  createNodeListener,
  type FetchHandler,
  type NodeListener,
  type NodeListenerOptions,
} from './node-listener.js';
export type {
  CallControl,
  CallControlErrorCode,
  ChildCallMode,
  CreateCallRequest,
  ModifyCallRequest,
  SimControl,
} from './platform/call-control.js';
export { CallControlError } from './platform/call-control.js';
export {
  type EnsuredAccount,
  ensureAccount,
  type RunningServer,
  type ServerOptions,
  startServer,
  type TlsOptions,
} from './server.js';
export * from './webhooks/index.js';
