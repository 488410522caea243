import type { QueueSide } from '../../queue/index.js';
import type { HttpMethod } from '../../rcml/model.js';
import type { VerbContext } from '../verbs/types.js';

/** A document a queue runs for a call (`waitUrl`, `joinUrl`, Queue `url`), already resolved. */
export interface QueueDoc {
  url: string;
  method: HttpMethod;
}

/** A call taking part in a queue: the verb it runs (Enqueue or Dial+Queue) and its documents. */
export interface QueueParty {
  ctx: VerbContext;
  side: QueueSide;
  /** Queue name (element text). */
  name: string;
  /** Runs in a loop while the call waits; without one it waits in silence. */
  waitDoc?: QueueDoc;
  /** Runs on this call once matched, before the bridge. */
  joinDoc?: QueueDoc;
  /** Dialers only: the Queue noun `url`, run on the enqueued partner before the bridge. */
  partnerDoc?: QueueDoc;
  /** Dialers only: longest wait (the Dial `timeout`), ms. */
  waitLimitMs?: number;
  /** Dialers only: longest bridge (the Dial `timeLimit`), ms. */
  timeLimitMs?: number;
  /** What to do when the call's script stops; replaced as the call moves on (see `onStop`). */
  stopHook?: () => void;
}

/**
 * Runs `hook` when the party's script stops (at once if it has). One script cleanup per verb
 * run serves every wait and match of the stay, so an agent taking many calls keeps none alive.
 */
export function onStop(party: QueueParty, hook: () => void): void {
  if (party.ctx.signal.aborted) {
    hook();
    return;
  }
  if (!party.stopHook) party.ctx.signal.onAbort(() => party.stopHook?.());
  party.stopHook = hook;
}

/** Resolves a document attribute against the running document; a bad URL is reported and dropped. */
export function queueDoc(
  ctx: VerbContext,
  where: string,
  url: string | undefined,
  method: HttpMethod,
): QueueDoc | undefined {
  if (url === undefined || !url.trim()) return undefined;
  const resolved = ctx.resolveUrl(url);
  if (!resolved) {
    ctx.notify('11100', 0, `${where}: invalid URL '${url}'; ignored`);
    return undefined;
  }
  return { url: resolved, method };
}
