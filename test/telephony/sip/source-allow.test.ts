/** The SIP allow list: requests from other sources get no answer at all. */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSipEndpoint, type SipEndpoint } from '../../../src/telephony/sip/endpoint.js';
import { sourceFilter } from '../../../src/telephony/sip-service.js';

function options(branch: string): string {
  return [
    'OPTIONS sip:15550100@127.0.0.1 SIP/2.0',
    `Via: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bK${branch}`,
    'From: <sip:caller@127.0.0.1>;tag=a1',
    'To: <sip:15550100@127.0.0.1>',
    `Call-ID: ${branch}@test`,
    'CSeq: 1 OPTIONS',
    'Max-Forwards: 70',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}

describe('SIP source allow list', () => {
  it('matches addresses and blocks, IPv4-mapped IPv6 sources as IPv4, and names a bad entry', () => {
    const allowed = sourceFilter(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    expect(allowed('10.1.2.3')).toBe(true);
    expect(allowed('::ffff:10.1.2.3')).toBe(true);
    expect(allowed('192.0.2.7')).toBe(true);
    expect(allowed('192.0.2.8')).toBe(false);
    expect(allowed('fd12::1')).toBe(true);
    expect(allowed('127.0.0.1')).toBe(false);
    expect(() => sourceFilter(['10.0.0.0/8', '10.0.0.0/33'])).toThrow("SIP allow list: '10.0.0.0/33'");
  });

  describe('on an endpoint', () => {
    let endpoint: SipEndpoint;
    let client: dgram.Socket;
    const seen: string[] = [];
    const inbox: string[] = [];
    let waiting: (() => void) | undefined;

    beforeAll(async () => {
      endpoint = await openSipEndpoint({
        port: 0,
        acceptsFrom: (address) => {
          seen.push(address);
          // The first request is refused, the next ones are taken.
          return seen.length > 1;
        },
        onInvite: () => {},
      });
      client = dgram.createSocket('udp4');
      client.on('message', (m) => {
        inbox.push(m.toString('latin1'));
        waiting?.();
      });
      await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      client.close();
      await endpoint.close();
    });

    it('drops a request of a source off the list unanswered, and answers one on it', async () => {
      const answered = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      // Datagrams on loopback arrive in order: once the second is answered, the first was read.
      client.send(options('refused1'), endpoint.port, '127.0.0.1');
      client.send(options('allowed1'), endpoint.port, '127.0.0.1');
      await answered;
      expect(seen).toEqual(['127.0.0.1', '127.0.0.1']);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatch(/^SIP\/2\.0 200 OK/);
      expect(inbox[0]).toContain('branch=z9hG4bKallowed1');
    });
  });
});
