import type { QueueWaitParams } from '../../queue/index.js';
import type { VerbContext } from '../verbs/types.js';
import { QueueDocContext } from './doc-context.js';
import type { QueueDoc } from './party.js';
import { JOIN_VERBS, QUEUE_URL_VERBS, runQueueVerbs } from './run-verbs.js';

/** Which document runs before a bridge: `joinUrl` (Enqueue or Queue) or the Queue noun `url`. */
export type JoinKind = 'joinUrl' | 'Queue url';

/** Redirects followed within one join document before giving up (a loop would never connect). */
const MAX_JOIN_REDIRECTS = 10;

/**
 * Runs a document for a matched call before the bridge, following its Redirects. A document
 * that cannot be had is reported and skipped: the calls are connected anyway. Stops early
 * when `stopped()` (the partner left).
 */
export async function runJoinDoc(
  ctx: VerbContext,
  doc: QueueDoc,
  kind: JoinKind,
  queueParams: QueueWaitParams,
  stopped: () => boolean,
): Promise<void> {
  const allowed = kind === 'joinUrl' ? JOIN_VERBS : QUEUE_URL_VERBS;
  let target: QueueDoc = doc;
  for (let hops = 0; ; hops++) {
    const loaded = await ctx.services.loadDocument(target.url, target.method, 'queue-join', {
      ...queueParams,
    });
    if (ctx.signal.aborted || stopped()) return;
    if (!loaded.ok) {
      ctx.notify(loaded.code, loaded.log, `${kind}: ${loaded.message}; connecting without it`, loaded.url);
      return;
    }
    const docCtx = new QueueDocContext(ctx, loaded.url, stopped);
    const outcome = await runQueueVerbs(docCtx, loaded.verbs, allowed, kind);
    if (outcome.kind !== 'fetch') return;
    if (hops + 1 >= MAX_JOIN_REDIRECTS) {
      ctx.notify(
        'engine.queue-redirects',
        1,
        `${kind}: more than ${MAX_JOIN_REDIRECTS} redirects; connecting`,
      );
      return;
    }
    target = { url: outcome.url, method: outcome.method };
  }
}
