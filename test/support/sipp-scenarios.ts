/**
 * SIPp caller scenarios for the telephony tests: an INVITE with an SDP offer whose media go to
 * a test's RTP sink (`[sinkport]`), the answer expected, then what the caller does.
 */

export interface OfferOptions {
  /** m= payload types in order, e.g. `0 101` (PCMU + telephone-event). */
  payloads?: string;
  /** a= lines (rtpmap...). */
  attributes?: string[];
  /** Extra header lines of the INVITE (`X-Customer: gold`). */
  headers?: string[];
  /** Connection address (0.0.0.0 for old-style hold). */
  address?: string;
}

const DEFAULT_ATTRIBUTES: Record<string, string> = {
  '0': 'a=rtpmap:0 PCMU/8000',
  '8': 'a=rtpmap:8 PCMA/8000',
  '101': 'a=rtpmap:101 telephone-event/8000\na=fmtp:101 0-15',
  '18': 'a=rtpmap:18 G729/8000',
  '3': 'a=rtpmap:3 GSM/8000',
};

function sdp(options: OfferOptions, direction = 'sendrecv', version = 1): string {
  const payloads = options.payloads ?? '0 101';
  const attributes =
    options.attributes ?? payloads.split(' ').flatMap((p) => (DEFAULT_ATTRIBUTES[p] ?? '').split('\n'));
  return [
    'v=0',
    `o=caller 53655765 ${version} IN IP4 [local_ip]`,
    's=-',
    `c=IN IP4 ${options.address ?? '[media_ip]'}`,
    't=0 0',
    `m=audio [sinkport] RTP/AVP ${payloads}`,
    ...attributes.filter((a) => a !== ''),
    'a=ptime:20',
    `a=${direction}`,
  ].join('\n');
}

/** The INVITE; `cseq` other than 1 for one sent again (after a 407, with SIPp's `[authentication]`). */
export function invite(options: OfferOptions & { cseq?: number } = {}): string {
  return `
  <send retrans="500">
    <![CDATA[
      INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: "Caller" <sip:[caller]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[service]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: ${options.cseq ?? 1} INVITE
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Max-Forwards: 70
${(options.headers ?? []).map((h) => `      ${h}\n`).join('')}      Content-Type: application/sdp
      Content-Length: [len]

${sdp(options)
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
    ]]>
  </send>`;
}

/** ACK of a 2xx (a new transaction, to the Contact of the answer). */
export const ack2xx = (cseq = 1): string => `
  <send>
    <![CDATA[
      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [last_From:]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: ${cseq} ACK
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>`;

/** ACK of a final refusal: part of the INVITE transaction, so its Via (branch). */
export const ackRefusalOf = (cseq: number): string => `
  <send>
    <![CDATA[
      ACK sip:[service]@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      [last_From:]
      [last_To:]
      Call-ID: [call_id]
      CSeq: ${cseq} ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>`;

export const ackRefusal = ackRefusalOf(1);

/** The caller answers our BYE. */
export const answerBye = `
  <recv request="BYE"/>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Content-Length: 0
    ]]>
  </send>`;

/** The caller hangs up. */
export const sendBye = (cseq = 2): string => `
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [last_From:]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: ${cseq} BYE
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200"/>`;

/** A re-INVITE with a new direction (hold: `sendonly`); answered and acknowledged. */
export const reInvite = (options: OfferOptions, direction: string, cseq: number): string => `
  <send retrans="500">
    <![CDATA[
      INVITE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [last_From:]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: ${cseq} INVITE
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

${sdp(options, direction, cseq)
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="200"/>
${ack2xx(cseq)}`;

/** Plays one of SIPp's captures (RFC 2833 digits, G.711 audio) to the answer's media address. */
export const playPcap = (file: string): string => `
  <nop><action><exec play_pcap_audio="${file}"/></action></nop>`;

export const pause = (ms: number): string => `
  <pause milliseconds="${ms}"/>`;

/** A whole scenario. */
export function scenario(name: string, body: string): string {
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<scenario name="${name}">
${body}
</scenario>
`;
}

/** INVITE, the provisional answers, and the 200 (route set recorded for in-dialog requests). */
export function answered(options: OfferOptions = {}): string {
  return `${invite(options)}
  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
${ack2xx()}`;
}

/** A key sent as SIP INFO (application/dtmf-relay), inside the dialog. */
export const infoDigit = (key: string, cseq: number): string => `
  <send retrans="500">
    <![CDATA[
      INFO [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [last_From:]
      [last_To:]
      [routes]
      Call-ID: [call_id]
      CSeq: ${cseq} INFO
      Contact: <sip:[caller]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/dtmf-relay
      Content-Length: [len]

      Signal=${key}
      Duration=160
    ]]>
  </send>
  <recv response="200"/>`;
