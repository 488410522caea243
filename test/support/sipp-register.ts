/**
 * SIPp scenarios of a softphone registering with the engine: REGISTER, its 401 answered with
 * SIPp's digest, and the Contact `sip:<user>@127.0.0.1:[contactport]` where another SIPp (the
 * phone's callee side) answers; and of a softphone placing a call (From `[caller]`), its INVITE
 * challenged with a 407.
 */
import * as S from './sipp-scenarios.js';

const register = (user: string, authorization: string, cseq: number, expires: number) => `
  <send retrans="500">
    <![CDATA[
      REGISTER sip:[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:${user}@[remote_ip]>;tag=[pid]reg[call_number]
      To: <sip:${user}@[remote_ip]>
      Call-ID: [call_id]
      CSeq: ${cseq} REGISTER
      Contact: <sip:${user}@127.0.0.1:[contactport]>${authorization}
      Expires: ${expires}
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>`;

/** Registers (challenged once), expecting `final` (200 or 403) to the answered REGISTER. */
export const registering = (
  user: string,
  password: string,
  final = 200,
  expires = 60,
): string => `${register(user, '', 1, expires)}
  <recv response="401" auth="true"/>
${register(user, `\n      [authentication username=${user} password=${password}]`, 2, expires)}
  <recv response="${final}"/>`;

/**
 * A client's call: the INVITE, its 407 acknowledged, the INVITE again (CSeq 2) with SIPp's
 * digest of `user` and `password`. What follows (200 and ACK, or 403) is the test's.
 */
export const challengedInvite = (user: string, password: string): string => `${S.invite()}
  <recv response="100" optional="true"/>
  <recv response="407" auth="true"/>
${S.ackRefusal}
${S.invite({ cseq: 2, headers: [`[authentication username=${user} password=${password}]`] })}
  <recv response="100" optional="true"/>`;

/** A whole call a client places: challenged, answered, acknowledged; it ends by our BYE. */
export const clientCall = (user: string, password: string): string =>
  S.scenario(
    'client-call',
    `${challengedInvite(user, password)}
  <recv response="180" optional="true"/>
  <recv response="200" rrs="true"/>
${S.ack2xx(2)}
${S.answerBye}`,
  );
