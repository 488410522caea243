import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  headerOf,
  headersOf,
  parseSipMessage,
  SIP_LIMITS,
  SipParseError,
  serializeSipMessage,
} from '../../../src/telephony/sip/message.js';

const INVITE = [
  'INVITE sip:+15550100@127.0.0.1:5060 SIP/2.0',
  'v: SIP/2.0/UDP 127.0.0.1:5061;branch=z9hG4bK-1, SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-0',
  'From: "A, B" <sip:15551111@127.0.0.1>;tag=abc',
  't: <sip:+15550100@127.0.0.1>',
  'i: call-1',
  'CSeq: 1 INVITE',
  'X-Customer: gold',
  '  and silver',
  'c: application/sdp',
  'l: 4',
  '',
  'v=0\r\nextra',
].join('\r\n');

describe('SIP messages', () => {
  it('reads compact headers, comma lists, folded lines and the body by Content-Length', () => {
    const m = parseSipMessage(INVITE);
    expect(m.kind).toBe('request');
    if (m.kind !== 'request') return;
    expect(m.method).toBe('INVITE');
    expect(headersOf(m.headers, 'via')).toHaveLength(2);
    expect(headerOf(m.headers, 'from')).toBe('"A, B" <sip:15551111@127.0.0.1>;tag=abc');
    expect(headerOf(m.headers, 'x-customer')).toBe('gold and silver');
    expect(m.body).toBe('v=0\r');
  });

  it('refuses a request without its mandatory headers, and oversized messages with 413/513', () => {
    expect(() => parseSipMessage('OPTIONS sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\n\r\n')).toThrow(
      /missing From/,
    );
    const many = Array.from({ length: SIP_LIMITS.headers + 1 }, (_, i) => `X-H${i}: 1`).join('\r\n');
    const err = (() => {
      try {
        parseSipMessage(`OPTIONS sip:a@b SIP/2.0\r\n${many}\r\n\r\n`);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SipParseError);
    expect((err as SipParseError).status).toBe(413);
    expect(() => parseSipMessage('x'.repeat(SIP_LIMITS.messageBytes + 1))).toThrow(/too large/);
  });

  it('writes what it reads (property)', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9.!%*_+`'~-]{1,12}$/);
    const value = fc.stringMatching(/^[A-Za-z0-9 ;=<>:@.]{0,30}$/).map((v) => v.trim());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(token, value), { maxLength: 8 }),
        fc.stringMatching(/^[ -~]{0,100}$/),
        (extra, body) => {
          const headers: Array<[string, string]> = [
            ['via', 'SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bK1'],
            ['from', '<sip:a@b>;tag=1'],
            ['to', '<sip:c@d>'],
            ['call-id', 'x'],
            ['cseq', '1 OPTIONS'],
            ...extra.map(([n, v]) => [`x-${n.toLowerCase()}`, v] as [string, string]),
          ];
          const wire = serializeSipMessage({
            kind: 'request',
            method: 'OPTIONS',
            uri: 'sip:a@b',
            headers,
            body,
          });
          const back = parseSipMessage(wire);
          expect(back.kind === 'request' && back.body).toBe(body);
          expect(back.headers.filter(([n]) => n !== 'content-length')).toEqual(headers);
        },
      ),
    );
  });
});
