import { Agent, buildConnector } from 'undici';
import { EgressDeniedError, type EgressGuard, ipLiteral } from './egress.js';

/** Timeouts and pooling of an outgoing-request agent. */
export interface GuardedAgentOptions {
  /** Milliseconds to connect, to wait for headers and between body chunks. */
  timeoutMs?: number;
  connections?: number | null;
  keepAliveTimeoutMs?: number;
  pipelining?: number;
}

/**
 * An undici Agent that connects only where `guard` allows (any address without one): host
 * names resolve through the guard's lookup, so the address connected to is the one checked,
 * and IP literals are checked before connecting. Every connection goes through it, so a
 * redirect to a refused address fails too.
 */
export function guardedAgent(guard: EgressGuard | undefined, options: GuardedAgentOptions = {}): Agent {
  let connect: buildConnector.connector | undefined;
  if (guard) {
    const direct = buildConnector({ timeout: options.timeoutMs, lookup: guard.lookup });
    connect = (target, callback) => {
      // Sockets skip `lookup` for IP literals: those are checked here.
      const literal = ipLiteral(target.hostname);
      const why = literal === undefined ? undefined : guard.refusal(literal);
      if (literal !== undefined && why !== undefined) {
        return callback(new EgressDeniedError(literal, literal, why), null);
      }
      return direct(target, callback);
    };
  }
  return new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: options.timeoutMs,
    connect,
    connections: options.connections,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    pipelining: options.pipelining,
  });
}
