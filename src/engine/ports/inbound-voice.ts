import type { HttpMethod } from '../../rcml/model.js';

/**
 * An inbound call's first document and its fallback, when no number routes it (a SIP client's
 * voice URL): what the telephony side hands the engine with a call it accepts.
 */
export interface InboundVoice {
  url: string;
  method?: HttpMethod;
  fallbackUrl?: string;
  fallbackMethod?: HttpMethod;
}
