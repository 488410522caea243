import { describe, expect, it } from 'vitest';
import {
  bindingTargetOf,
  CUSTOM_HEADER_LIMITS,
  dialFailureOf,
  fromUserOf,
  inviteHeadersOf,
  sipTargetOf,
} from '../../src/telephony/sip-target.js';

describe('outgoing SIP targets', () => {
  it('reads sip:user@host[:port] targets, keeping URI parameters and leaving the ?headers out', () => {
    expect(sipTargetOf('sip:alice@127.0.0.1:5070;transport=tcp?X-A=1')).toEqual({
      uri: 'sip:alice@127.0.0.1:5070;transport=tcp',
      host: '127.0.0.1',
      port: 5070,
      transport: 'tcp',
    });
    expect(sipTargetOf('sip:bob@example.com')).toMatchObject({
      host: 'example.com',
      port: 5060,
      transport: 'udp',
    });
  });

  it('refuses targets it cannot call, saying why', () => {
    expect(sipTargetOf('sips:alice@host')).toHaveProperty('error');
    expect(sipTargetOf('sip:host-only')).toHaveProperty('error');
    expect(sipTargetOf('sip:alice@host\r\nX-Evil: 1')).toHaveProperty('error');
    expect(sipTargetOf('sip:alice@host;transport=sctp')).toEqual({
      error: 'transport=sctp is not supported',
    });
  });

  it('sends only X- headers, without CR, LF or NUL, within the caps', () => {
    expect(inviteHeadersOf({ 'X-Customer': 'gold', 'X-Tag': ['a', 'b'] })).toEqual([
      ['x-customer', 'gold'],
      ['x-tag', 'a'],
      ['x-tag', 'b'],
    ]);
    expect(inviteHeadersOf(undefined)).toEqual([]);
    expect(inviteHeadersOf({ 'X-A': 'x\r\nVia: evil' })).toHaveProperty('error');
    expect(inviteHeadersOf({ 'X-A': 'x\0' })).toHaveProperty('error');
    expect(inviteHeadersOf({ Route: '<sip:evil>' })).toHaveProperty('error');
    const many = Object.fromEntries(
      Array.from({ length: CUSTOM_HEADER_LIMITS.count + 1 }, (_, i) => [`X-H${i}`, 'v']),
    );
    expect(inviteHeadersOf(many)).toHaveProperty('error');
    expect(inviteHeadersOf({ 'X-Big': 'v'.repeat(CUSTOM_HEADER_LIMITS.bytes) })).toHaveProperty('error');
  });

  it('writes a URI-safe From user', () => {
    expect(fromUserOf('+15551234')).toBe('+15551234');
    expect(fromUserOf('client:alice')).toBe('alice');
    expect(fromUserOf('sip:bob@host')).toBe('bob');
    expect(fromUserOf('a b<c>')).toBe('a%20b%3Cc%3E');
    expect(fromUserOf('')).toBe('anonymous');
  });

  it('maps final answers to call statuses', () => {
    expect([486, 600, 408, 480, 487, 404, 503, 603].map(dialFailureOf)).toEqual([
      'busy',
      'busy',
      'no-answer',
      'no-answer',
      'canceled',
      'failed',
      'failed',
      'failed',
    ]);
  });
});

describe('bindingTargetOf', () => {
  it("calls a softphone behind NAT at its REGISTER's source, its Contact as the Request-URI", () => {
    expect(bindingTargetOf({ contact: 'sip:alice@192.168.1.20:5062', source: '203.0.113.7:41234' })).toEqual({
      uri: 'sip:alice@192.168.1.20:5062',
      host: '203.0.113.7',
      port: 41234,
      transport: 'udp',
    });
  });

  it('keeps a Contact that is public, or that names the source itself', () => {
    expect(
      bindingTargetOf({ contact: 'sip:alice@198.51.100.3:5060', source: '203.0.113.7:41234' }),
    ).toMatchObject({
      host: '198.51.100.3',
      port: 5060,
    });
    expect(bindingTargetOf({ contact: 'sip:alice@10.0.0.5:5060', source: '10.0.0.5:5060' })).toMatchObject({
      host: '10.0.0.5',
      port: 5060,
    });
  });
});
