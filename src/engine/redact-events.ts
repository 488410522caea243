import { redactUrl } from './fetch/credentials.js';
import type { EngineEvent, EngineEventListener } from './types.js';

const hasSecret = (text: string) => text.includes('@') && redactUrl(text) !== text;

function redactValues(params: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const k in params) {
    const v = params[k];
    if (typeof v === 'string' && hasSecret(v)) {
      out ??= { ...params };
      out[k] = redactUrl(v);
    }
  }
  return out ?? params;
}

/** The event with URL passwords shown as `***` (the event itself when it holds none). */
export function redactEvent(event: EngineEvent): EngineEvent {
  switch (event.type) {
    case 'request': {
      const params = redactValues(event.params);
      return hasSecret(event.url) || params !== event.params
        ? { ...event, url: redactUrl(event.url), params }
        : event;
    }
    case 'response': {
      // The answered document may carry URLs with passwords too (the console shows it).
      const body = event.body !== undefined && hasSecret(event.body) ? redactUrl(event.body) : event.body;
      return hasSecret(event.url) || body !== event.body
        ? { ...event, url: redactUrl(event.url), body }
        : event;
    }
    case 'verb':
      return hasSecret(event.documentUrl) ? { ...event, documentUrl: redactUrl(event.documentUrl) } : event;
    case 'modify': {
      const params = redactValues(event.params);
      return params === event.params ? event : { ...event, params };
    }
    default:
      return event;
  }
}

/** A listener that never sees a URL's password (traces and logs are built from its events). */
export function redactingListener(
  listener: EngineEventListener | undefined,
): EngineEventListener | undefined {
  return listener && ((event) => listener(redactEvent(event)));
}
