/**
 * SIPp callee (UAS) scenarios for the outgoing-call tests: it answers our INVITE with 200 and
 * an SDP whose media go to a test's RTP sink (`[sinkport]`), refuses it, or rings until our CANCEL.
 */

const toTagged = '[last_To:];tag=[pid]SIPpTag01[call_number]';

const provisional = (status: string) => `
  <send>
    <![CDATA[
      SIP/2.0 ${status}
      [last_Via:]
      [last_From:]
      ${toTagged}
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[local_ip]:[local_port];transport=[transport]>
      Content-Length: 0
    ]]>
  </send>`;

const RTPMAP: Record<string, string> = { '0': 'a=rtpmap:0 PCMU/8000', '8': 'a=rtpmap:8 PCMA/8000' };

/** A response with our SDP answer: PCMU (or `payload`) and telephone-event at `port`. */
const withSdp = (status: string, port: string, payload: '0' | '8' = '0', retrans = '') => `
  <send${retrans}>
    <![CDATA[
      SIP/2.0 ${status}
      [last_Via:]
      [last_From:]
      ${toTagged}
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[local_ip]:[local_port];transport=[transport]>
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=callee 1 1 IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio ${port} RTP/AVP ${payload} 101
      ${RTPMAP[payload]}
      a=rtpmap:101 telephone-event/8000
      a=ptime:20
      a=sendrecv
    ]]>
  </send>`;

/** Our BYE, answered 200. */
const byeAnswered = `
  <recv request="BYE"/>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>`;

/**
 * Rings, answers (PCMU, or `payload`) with its media at `[sinkport]`, takes the ACK, does
 * `afterAck` (plays a capture), then answers our BYE.
 */
export const answering = (options: { payload?: '0' | '8'; afterAck?: string } = {}): string => `
  <recv request="INVITE" crlf="true"/>
${provisional('180 Ringing')}
${withSdp('200 OK', '[sinkport]', options.payload, ' retrans="500"')}
  <recv request="ACK"/>
${options.afterAck ?? ''}
${byeAnswered}`;

/**
 * Answers 183 with SDP (its own media port), does `early` (plays a capture), answers 200 with
 * the same SDP 2.2 s later, takes the ACK and answers our BYE.
 */
export const earlyThenAnswer = (early: string): string => `
  <recv request="INVITE" crlf="true"/>
${withSdp('183 Session Progress', '[media_port]')}
${early}
  <pause milliseconds="2200"/>
${withSdp('200 OK', '[media_port]')}
  <recv request="ACK"/>
${byeAnswered}`;

/** Refuses with `status` (`486 Busy Here`) and takes the ACK. */
export const refusing = (status: string): string => `
  <recv request="INVITE" crlf="true"/>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 ${status}
      [last_Via:]
      [last_From:]
      ${toTagged}
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK"/>`;

/** Rings until the CANCEL: 200 to it, 487 to the INVITE, then the ACK. */
export const ringingUntilCancel = `
  <recv request="INVITE" crlf="true"/>
${provisional('180 Ringing')}
  <recv request="CANCEL"/>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      ${toTagged}
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 487 Request Terminated
      [last_Via:]
      [last_From:]
      ${toTagged}
      [last_Call-ID:]
      CSeq: 1 INVITE
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK"/>`;

/**
 * A re-INVITE of the engine (hold, resume) received in the dialog, its SDP checked for
 * `a=<direction>` (the scenario fails otherwise), answered 200 with `answer` as direction, and
 * its ACK.
 */
export const takeReinvite = (direction: string, answer: string): string => `
  <recv request="INVITE">
    <action>
      <ereg regexp="a=${direction}" search_in="body" check_it="true" assign_to="dir"/>
    </action>
  </recv>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:[local_ip]:[local_port];transport=[transport]>
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=caller 53655765 2 IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio [sinkport] RTP/AVP 0 101
      a=rtpmap:0 PCMU/8000
      a=rtpmap:101 telephone-event/8000
      a=${answer}
    ]]>
  </send>
  <recv request="ACK"/>`;
