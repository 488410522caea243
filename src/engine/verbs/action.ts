import type { HttpMethod } from '../../rcml/model.js';
import type { VerbContext, VerbOutcome } from './types.js';

/**
 * Outcome that requests a verb's `action` with result parameters: the returned document
 * replaces the current one. A bad URI stops the call (11100).
 */
export function actionOutcome(
  ctx: VerbContext,
  verbName: string,
  action: string,
  method: HttpMethod,
  params: Record<string, string>,
): VerbOutcome {
  const url = ctx.resolveUrl(action);
  if (!url) {
    ctx.notify('11100', 0, `${verbName}: invalid action URL '${action}'`);
    return { kind: 'hangup' };
  }
  return { kind: 'fetch', url, method, requestKind: 'action', params };
}
