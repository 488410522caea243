import sdpTransform from 'sdp-transform';

/** The codecs this endpoint speaks: G.711 µ-law and A-law, 8 kHz. */
export type Codec = 'PCMU' | 'PCMA';

/** Static payload types of G.711 (RFC 3551). */
const STATIC: Record<number, Codec> = { 0: 'PCMU', 8: 'PCMA' };

/** A media direction (RFC 3264 section 5.1). */
export type Direction = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

/** What an offer settles for the call's audio. */
export interface Negotiated {
  codec: Codec;
  /** Payload type of the codec in the offer. */
  payloadType: number;
  /** Payload type of `telephone-event/8000`, when offered. */
  dtmfPayloadType?: number;
  /** Where to send RTP; null when the far end asks for none (`c=0.0.0.0`, port 0). */
  remote: { address: string; port: number } | null;
  /** Our direction in the answer: the mirror of the offer's. */
  direction: Direction;
  /** Index of the audio stream among the offer's m= lines. */
  streamIndex: number;
  /** Ms of audio per packet we send: the far end's `a=ptime` (20, 30 or 40, within its `a=maxptime`), else 20. */
  ptime: number;
}

/** Packet times we send (multiples of 10 ms the 20 ms pacing loop can make up). */
const PTIMES = [40, 30, 20];

/** The packet time for an offer's `ptime` and `maxptime`: the largest of ours within both, else 20. */
export function packetTimeOf(ptime: number | undefined, maxptime: number | undefined): number {
  const want = ptime ?? 20;
  return PTIMES.find((p) => p <= want && (maxptime === undefined || p <= maxptime)) ?? 20;
}

/** Why an offer cannot be answered: 488 (no codec we speak) or 400 (unreadable). */
export interface OfferRefusal {
  status: 488 | 400;
  reason: string;
}

const MIRROR: Record<Direction, Direction> = {
  sendrecv: 'sendrecv',
  sendonly: 'recvonly',
  recvonly: 'sendonly',
  inactive: 'inactive',
};

function directionOf(value: string | undefined): Direction | undefined {
  return value === 'sendrecv' || value === 'sendonly' || value === 'recvonly' || value === 'inactive'
    ? value
    : undefined;
}

/**
 * Chooses the caller's first G.711 codec of the first audio stream (RFC 3264: the answer keeps
 * the offer's order), or `prefer` when it is offered at all (a re-offer keeps the call's codec),
 * notes telephone-event and follows the offered direction.
 */
export function negotiate(offer: string, prefer?: Codec): Negotiated | OfferRefusal {
  let session: sdpTransform.SessionDescription;
  try {
    session = sdpTransform.parse(offer);
  } catch {
    return { status: 400, reason: 'unreadable SDP' };
  }
  if (!session.media || session.media.length === 0) return { status: 400, reason: 'SDP without media' };
  const streamIndex = session.media.findIndex(
    (m) => m.type === 'audio' && m.port !== 0 && /^RTP\/AVP$/i.test(m.protocol),
  );
  if (streamIndex < 0) return { status: 488, reason: 'no RTP/AVP audio stream offered' };
  const media = session.media[streamIndex];
  const rtpmap = new Map<number, string>();
  for (const r of media.rtp ?? []) rtpmap.set(r.payload, `${r.codec}/${r.rate}`.toUpperCase());
  let chosen: { codec: Codec; payloadType: number } | undefined;
  let dtmfPayloadType: number | undefined;
  for (const token of String(media.payloads ?? '').split(/\s+/)) {
    const pt = Number(token);
    if (!Number.isInteger(pt)) continue;
    const mapped = rtpmap.get(pt);
    const codec: Codec | undefined =
      mapped === 'PCMU/8000' ? 'PCMU' : mapped === 'PCMA/8000' ? 'PCMA' : mapped ? undefined : STATIC[pt];
    if (codec && (!chosen || (codec === prefer && chosen.codec !== prefer)))
      chosen = { codec, payloadType: pt };
    if (mapped === 'TELEPHONE-EVENT/8000' && dtmfPayloadType === undefined) dtmfPayloadType = pt;
  }
  if (!chosen) return { status: 488, reason: 'no G.711 codec (PCMU or PCMA) offered' };
  const address = media.connection?.ip ?? session.connection?.ip;
  if (!address) return { status: 400, reason: 'SDP without a connection address' };
  const offered = directionOf(media.direction) ?? directionOf(session.direction) ?? 'sendrecv';
  // c=0.0.0.0 is the old (RFC 2543) way to put a call on hold: send nothing there.
  const held = address === '0.0.0.0' || address === '::';
  const maxptime = Number((media as { maxptime?: number | string }).maxptime ?? Number.NaN);
  return {
    ...chosen,
    dtmfPayloadType,
    ptime: packetTimeOf(media.ptime, Number.isFinite(maxptime) ? maxptime : undefined),
    remote: held ? null : { address, port: media.port },
    direction: held && offered === 'sendrecv' ? 'recvonly' : MIRROR[offered],
    streamIndex,
  };
}

/** Our side of the session: its origin line is kept across re-offers, version +1 each time. */
export interface LocalSession {
  sessionId: number;
  version: number;
  address: string;
  port: number;
}

/** The answer to `offer`: the negotiated stream at our address, every other stream refused (port 0). */
export function buildAnswer(offer: string, negotiated: Negotiated, local: LocalSession): string {
  const session = sdpTransform.parse(offer);
  const media = session.media.map((m, i) => {
    if (i !== negotiated.streamIndex) {
      return {
        type: m.type,
        port: 0,
        protocol: m.protocol,
        payloads: String(m.payloads ?? '').split(/\s+/)[0] ?? '0',
        rtp: [],
        fmtp: [],
      };
    }
    const rtp: Array<{ payload: number; codec: string; rate: number }> = [
      { payload: negotiated.payloadType, codec: negotiated.codec, rate: 8000 },
    ];
    const fmtp: Array<{ payload: number; config: string }> = [];
    const payloads = [negotiated.payloadType];
    if (negotiated.dtmfPayloadType !== undefined) {
      rtp.push({ payload: negotiated.dtmfPayloadType, codec: 'telephone-event', rate: 8000 });
      fmtp.push({ payload: negotiated.dtmfPayloadType, config: '0-16' });
      payloads.push(negotiated.dtmfPayloadType);
    }
    return {
      type: 'audio',
      port: local.port,
      protocol: 'RTP/AVP',
      payloads: payloads.join(' '),
      rtp,
      fmtp,
      ptime: negotiated.ptime,
      direction: negotiated.direction,
    };
  });
  return writeSession(local, media);
}

/** Our session description around `media`: origin, connection and timing at our address. */
function writeSession(local: LocalSession, media: sdpTransform.SessionDescription['media']): string {
  const ip4 = !local.address.includes(':');
  return sdpTransform.write({
    version: 0,
    origin: {
      username: 'rcml',
      sessionId: local.sessionId,
      sessionVersion: local.version,
      netType: 'IN',
      ipVer: ip4 ? 4 : 6,
      address: local.address,
    },
    name: 'rcml',
    connection: { version: ip4 ? 4 : 6, ip: local.address },
    timing: { start: 0, stop: 0 },
    media,
  } as sdpTransform.SessionDescription);
}

/** Payload type of `telephone-event/8000` in our offers. */
export const OFFER_DTMF_PAYLOAD = 101;

/**
 * Our offer for an outgoing call: one audio stream at our address, PCMU then PCMA, and
 * telephone-event; `direction` is `sendrecv`, or `sendonly`/`inactive` to hold.
 */
export function buildOffer(local: LocalSession, direction: Direction = 'sendrecv'): string {
  return writeSession(local, [
    {
      type: 'audio',
      port: local.port,
      protocol: 'RTP/AVP',
      payloads: `0 8 ${OFFER_DTMF_PAYLOAD}`,
      rtp: [
        { payload: 0, codec: 'PCMU', rate: 8000 },
        { payload: 8, codec: 'PCMA', rate: 8000 },
        { payload: OFFER_DTMF_PAYLOAD, codec: 'telephone-event', rate: 8000 },
      ],
      fmtp: [{ payload: OFFER_DTMF_PAYLOAD, config: '0-16' }],
      ptime: 20,
      direction,
    },
  ]);
}

/**
 * Reads the callee's answer to our offer: its codec (one we offered), telephone-event, its
 * address and our direction (the mirror of its own).
 */
export function readAnswer(answer: string): Negotiated | OfferRefusal {
  const negotiated = negotiate(answer);
  if ('status' in negotiated) return negotiated;
  if (negotiated.payloadType !== 0 && negotiated.payloadType !== 8)
    return { status: 488, reason: 'answer chose a payload type we did not offer' };
  return negotiated;
}
