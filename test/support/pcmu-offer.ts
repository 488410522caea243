/** The smallest SDP offer a hand-written INVITE carries: PCMU on a discard port of loopback. */
export const PCMU_OFFER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=-',
  'c=IN IP4 127.0.0.1',
  't=0 0',
  'm=audio 9 RTP/AVP 0',
  '',
].join('\r\n');
