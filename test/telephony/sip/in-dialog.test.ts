/** In-dialog requests both call sides answer alike: INFO digits, OPTIONS, unknown methods. */
import { describe, expect, it } from 'vitest';
import { ALLOWED_METHODS, answerOtherInDialog, dtmfOfInfo } from '../../../src/telephony/sip/in-dialog.js';
import {
  headerOf,
  parseSipMessage,
  type SipRequest,
  type SipResponse,
} from '../../../src/telephony/sip/message.js';

function request(method: string, extra: string[] = [], body = ''): SipRequest {
  const text = [
    `${method} sip:caller@127.0.0.1:5070 SIP/2.0`,
    'Via: SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bKx1',
    'From: <sip:caller@127.0.0.1>;tag=a1',
    'To: <sip:15550100@127.0.0.1>;tag=b2',
    'Call-ID: in-dialog@test',
    `CSeq: 2 ${method}`,
    ...extra,
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
  return parseSipMessage(text) as SipRequest;
}

function answer(req: SipRequest): { responses: SipResponse[]; digits: string[] } {
  const responses: SipResponse[] = [];
  const digits: string[] = [];
  answerOtherInDialog(
    req,
    (r) => responses.push(r),
    (k) => digits.push(k),
  );
  return { responses, digits };
}

describe('answerOtherInDialog', () => {
  it('answers INFO with 200 and passes on its digit (dtmf-relay, event 10 is *)', () => {
    const { responses, digits } = answer(
      request('INFO', ['Content-Type: application/dtmf-relay'], 'Signal=10\r\nDuration=160\r\n'),
    );
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(digits).toEqual(['*']);
  });

  it('answers an INFO that carries no digit with 200 and no digit', () => {
    const { responses, digits } = answer(request('INFO', ['Content-Type: application/json'], '{}'));
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(digits).toEqual([]);
  });

  it('answers OPTIONS with 200 listing the methods we allow', () => {
    const { responses } = answer(request('OPTIONS'));
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(headerOf(responses[0]!.headers, 'allow')).toBe(ALLOWED_METHODS);
  });

  it('answers a method it does not know with 501, and one it knows but does not take with 405 and Allow', () => {
    const { responses, digits } = answer(request('FROBNICATE', ['Content-Type: text/plain'], 'hi'));
    expect(responses.map((r) => r.status)).toEqual([501]);
    expect(digits).toEqual([]);
    for (const method of ['MESSAGE', 'REFER']) {
      const known = answer(request(method, ['Content-Type: text/plain'], 'hi'));
      expect(known.responses.map((r) => r.status)).toEqual([405]);
      expect(headerOf(known.responses[0]!.headers, 'allow')).toBe(ALLOWED_METHODS);
    }
  });
});

describe('dtmfOfInfo', () => {
  it('reads application/dtmf and refuses what is not a key', () => {
    expect(dtmfOfInfo('application/dtmf', ' 5 ')).toBe('5');
    expect(dtmfOfInfo('application/dtmf', 'd')).toBe('D');
    expect(dtmfOfInfo('application/dtmf', '16')).toBeUndefined();
    expect(dtmfOfInfo('application/dtmf-relay', 'Signal=#')).toBe('#');
    expect(dtmfOfInfo(undefined, '5')).toBeUndefined();
  });
});
