/** The `fetch` of external-service steps under the engine's egress policy. */
import { fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../../designer/context.js';
import { EgressGuard, type EgressPolicy, guardedAgent } from '../../engine/fetcher.js';

/** A `fetch` and the close of its connections. */
export interface GuardedFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

/**
 * External-service requests through the same guarded agent as the engine's own requests, so a
 * service on a refused address (directly, by DNS or by a redirect) fails like an unreachable
 * one. Undefined when the policy refuses nothing: undici's `fetch` as it is then.
 */
export function egressFetch(policy: EgressPolicy | undefined): GuardedFetch | undefined {
  if (!policy?.denyPrivateNetworks) return undefined;
  const dispatcher = guardedAgent(new EgressGuard(policy));
  const fetch: FetchLike = (url, init) =>
    undiciFetch(url, { ...init, dispatcher }) as unknown as ReturnType<FetchLike>;
  return { fetch, close: () => dispatcher.destroy() };
}
