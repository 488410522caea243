/**
 * Follows the engine (its events and the records it reports) for metrics and logs. Every line
 * about a call carries its `callSid` and `accountSid`; live calls are remembered until they end
 * so that events naming only a call sid can be attributed to its account.
 */
import { type CallRecord, type RecordSink, TERMINAL_STATUSES } from '../../engine/records.js';
import type { EngineEvent, EngineEventListener } from '../../engine/types.js';
import type { Logger } from './log.js';
import type { PlatformMetrics } from './metrics.js';
import { redactUrls } from './readiness.js';

/** Options of {@link createCallObserver}. */
export interface CallObserverOptions {
  metrics?: PlatformMetrics;
  log?: Logger;
}

/** What to hook into an engine: its event listener and a wrapper around its record sink. */
export interface CallObserver {
  onEvent: EngineEventListener;
  wrapSink<S extends RecordSink>(sink: S): S;
}

interface LiveCall {
  accountSid: string;
  status: string;
}

/** A URL as logged: no credentials, no query string (it may carry tokens). */
function loggedUrl(url: string): string {
  const q = url.indexOf('?');
  return redactUrls(q < 0 ? url : `${url.slice(0, q)}?...`);
}

export function createCallObserver(options: CallObserverOptions): CallObserver {
  const { metrics, log } = options;
  // The lines of every call (sids, status, direction, duration: never a secret) skip the
  // redaction pass, most of a line's cost.
  const callLog = log?.child({}, { redact: [] });
  const live = new Map<string, LiveCall>();
  const requestStarts = new Map<number, number>();
  const accountOf = (callSid: string | undefined) => (callSid ? live.get(callSid)?.accountSid : undefined);

  const onCall = (call: Readonly<CallRecord>) => {
    const known = live.get(call.sid);
    if (known?.status === call.status) return;
    const ended = TERMINAL_STATUSES.has(call.status);
    if (!known) metrics?.callStarted(call.direction);
    if (ended) {
      live.delete(call.sid);
      metrics?.callEnded(call.status, call.direction);
      callLog?.info(
        {
          callSid: call.sid,
          accountSid: call.accountSid,
          status: call.status,
          direction: call.direction,
          duration: call.duration,
        },
        'call ended',
      );
      return;
    }
    if (known) known.status = call.status;
    else live.set(call.sid, { accountSid: call.accountSid, status: call.status });
    if (callLog?.isLevelEnabled('debug')) {
      callLog.debug(
        { callSid: call.sid, accountSid: call.accountSid, status: call.status, direction: call.direction },
        'call status',
      );
    }
  };

  const onEvent = (event: EngineEvent) => {
    switch (event.type) {
      case 'request':
        requestStarts.set(event.id, performance.now());
        return;
      case 'response': {
        const startedAt = requestStarts.get(event.id);
        requestStarts.delete(event.id);
        if (startedAt !== undefined) {
          metrics?.webhook(event.kind, (performance.now() - startedAt) / 1000, event.status);
        }
        if ((event.status === 0 || event.status >= 400) && log) {
          log.warn(
            {
              callSid: event.callSid,
              accountSid: accountOf(event.callSid),
              kind: event.kind,
              url: loggedUrl(event.url),
              status: event.status,
              error: event.error,
            },
            'webhook failed',
          );
        }
        return;
      }
      case 'queue': {
        if (!metrics) return;
        const q = event.event;
        if (q.type === 'enqueue' || q.type === 'position-change')
          metrics.queueSize(q.queueSid, q.side, q.size);
        else if (q.type === 'match') metrics.queueWait('match', q.waiting.waitMs / 1000);
        else if (q.type === 'leave' || q.type === 'timeout') {
          metrics.queueWait(q.type, q.waitMs / 1000);
        }
        return;
      }
      default:
        return;
    }
  };

  return {
    onEvent,
    wrapSink: (sink) => ({
      ...sink,
      call(call) {
        onCall(call);
        sink.call?.(call);
      },
      notification(n) {
        metrics?.notification(n.code);
        log?.[n.log === 0 ? 'warn' : 'info'](
          { callSid: n.callSid, accountSid: n.accountSid, code: n.code, url: n.url && loggedUrl(n.url) },
          n.message,
        );
        sink.notification?.(n);
      },
    }),
  };
}
