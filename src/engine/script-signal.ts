import type { InterruptReason } from './errors.js';

/**
 * Tells a running script it was stopped (call ended or document replaced). Lighter than an
 * AbortSignal: one is created per script run. Services that outlive a verb's wait (rings,
 * bridges) take it to stop with the script.
 */
export interface ScriptSignal {
  readonly aborted: boolean;
  /** Why the script stopped: `ended` (call over), `replaced` (Redirect-like), `modified` (live modification). */
  readonly reason?: InterruptReason;
  /** Runs `cleanup` when the script stops (at once if it already has). */
  onAbort(cleanup: () => void): void;
}
