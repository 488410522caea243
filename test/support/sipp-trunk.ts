/**
 * SIPp scenarios of a SIP trunk (UAS) that challenges INVITEs with a digest 401 and checks the
 * credentials of the INVITE sent again (`[user]`, `[password]` keys).
 */
import { answering } from './sipp-callee.js';

const challenge = `
  <recv request="INVITE" crlf="true"/>
  <send retrans="500">
    <![CDATA[
      SIP/2.0 401 Unauthorized
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      WWW-Authenticate: Digest realm="trunk.test", nonce="[pid]n[call_number]c4b2", qop="auth", algorithm=MD5, opaque="op1"
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK"/>`;

/**
 * Challenges the first INVITE; the second must carry valid credentials: answered as
 * `answering()` does (media at `[sinkport]`), or refused 403 when they are wrong.
 */
export const challengingThenAnswering = (): string => `${challenge}
  <recv request="INVITE">
    <action>
      <verifyauth assign_to="authvalid" username="[user]" password="[password]"/>
    </action>
  </recv>
  <nop hide="true" test="authvalid" next="good"/>
  <send>
    <![CDATA[
      SIP/2.0 403 Forbidden
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK" next="done"/>
  <label id="good"/>
${answering().replace(/^\s*<recv request="INVITE" crlf="true"\/>/, '')}
  <label id="done"/>`;

/** Challenges every INVITE: the caller gives up after its second one. */
export const challengingTwice = (): string => `${challenge}${challenge.replace(' crlf="true"', '')}`;
