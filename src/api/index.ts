// Public API of the api layer.
export { type AppOptions, createApp } from './app.js';
export { ApiError } from './http/errors.js';
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
} from './server.js';
