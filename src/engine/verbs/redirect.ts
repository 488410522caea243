import type { Redirect } from '../../rcml/model.js';
import { redirectDefaults } from '../../rcml/verbs/redirect.js';
import { NEXT, type VerbContext, type VerbOutcome } from './types.js';

/** Replaces the document with the one at the URL; an empty URL does nothing. */
export async function redirectVerb(ctx: VerbContext, verb: Redirect): Promise<VerbOutcome> {
  if (!verb.url.trim()) return NEXT;
  const url = ctx.resolveUrl(verb.url);
  if (!url) {
    ctx.notify('11100', 0, `Redirect: invalid URL '${verb.url}'`);
    return { kind: 'hangup' };
  }
  return { kind: 'fetch', url, method: verb.method ?? redirectDefaults.method, requestKind: 'redirect' };
}
