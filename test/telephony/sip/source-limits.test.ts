/**
 * Per-source limits with real packets on loopback (the loopback exemption turned off): calls in
 * set-up that are never acknowledged, TCP connections held open, and an OPTIONS flood.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSipEndpoint,
  type SipEndpoint,
  type SipEndpointOptions,
} from '../../../src/telephony/sip/endpoint.js';
import { ManualSipTimers, T1 } from '../../../src/telephony/sip/timers.js';
import { PCMU_OFFER } from '../../support/pcmu-offer.js';

function request(
  method: string,
  branch: string,
  from = '127.0.0.1',
  extra: string[] = [],
  body = '',
): string {
  return [
    `${method} sip:15550100@127.0.0.1 SIP/2.0`,
    `Via: SIP/2.0/UDP ${from}:9;branch=z9hG4bK${branch}`,
    ...extra,
    'From: <sip:caller@127.0.0.1>;tag=a1',
    'To: <sip:15550100@127.0.0.1>',
    `Call-ID: ${branch}@test`,
    `CSeq: 1 ${method}`,
    `Contact: <sip:caller@${from}>`,
    'Max-Forwards: 70',
    ...(body ? ['Content-Type: application/sdp'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/** A UDP socket on `address` that collects what it is sent. */
async function udpPeer(address: string) {
  const socket = dgram.createSocket('udp4');
  const inbox: string[] = [];
  let wake: (() => void) | undefined;
  socket.on('message', (m) => {
    inbox.push(m.toString('latin1'));
    wake?.();
  });
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  return {
    socket,
    inbox,
    /** address:port of the socket. */
    at: `${address}:${socket.address().port}`,
    send: (text: string, port: number) => socket.send(text, port, '127.0.0.1'),
    /** Resolves once `test` holds for the inbox. */
    until: (test: (inbox: string[]) => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (test(inbox)) {
            wake = undefined;
            resolve();
          }
        };
        wake = check;
        check();
      }),
  };
}

const statusesOf = (inbox: string[]) => inbox.map((m) => /^SIP\/2\.0 (\d+)/.exec(m)?.[1] ?? m.split(' ')[0]);

describe('per-source limits of the SIP endpoint', () => {
  let endpoint: SipEndpoint | undefined;
  const closers: Array<() => void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) close();
    await endpoint?.close();
    endpoint = undefined;
  });

  const open = async (options: Partial<SipEndpointOptions>) => {
    endpoint = await openSipEndpoint({ port: 0, onInvite: () => {}, ...options });
    return endpoint;
  };

  it('refuses (503) a source past its calls in set-up; Timer L ends the unacknowledged ones and frees them', async () => {
    const timers = new ManualSipTimers();
    const sip = await open({
      timers,
      limits: { exemptLoopback: false, setupsPerSource: 3, invitesPerSecond: 1000 },
      onInvite: (call) => call.answer('v=0\r\n'),
    });
    const flooder = await udpPeer('127.0.0.1');
    const other = await udpPeer('127.0.0.2');
    closers.push(
      () => flooder.socket.close(),
      () => other.socket.close(),
    );
    for (let i = 0; i < 5; i++)
      flooder.send(request('INVITE', `flood${i}`, flooder.at, [], PCMU_OFFER), sip.port);
    await flooder.until((inbox) => statusesOf(inbox).filter((s) => s !== '100').length === 5);
    const finals = statusesOf(flooder.inbox).filter((s) => s !== '100');
    expect(finals.sort()).toEqual(['200', '200', '200', '503', '503']);
    expect(flooder.inbox.find((m) => m.startsWith('SIP/2.0 503'))).toMatch(/^Retry-After: 5/m);
    // Another source still gets through.
    other.send(request('INVITE', 'other1', other.at, [], PCMU_OFFER), sip.port);
    await other.until((inbox) => statusesOf(inbox).includes('200'));
    // No ACK ever comes: at 64*T1 each answered call is ended with a BYE, and its slot is free.
    timers.advance(64 * T1);
    await flooder.until((inbox) => statusesOf(inbox).filter((s) => s === 'BYE').length === 3);
    flooder.send(request('INVITE', 'flood9', flooder.at, [], PCMU_OFFER), sip.port);
    await flooder.until((inbox) => inbox.some((m) => m.startsWith('SIP/2.0 200') && m.includes('flood9')));
  });

  it('closes TCP connections past the per-source and total caps, and those idle for 32 s', async () => {
    const timers = new ManualSipTimers();
    const sip = await open({ timers, limits: { tcpPerSource: 4, tcpTotal: 6 } });
    const connect = async (localAddress: string) => {
      const socket = net.connect({ port: sip.port, host: '127.0.0.1', localAddress });
      socket.on('error', () => {});
      closers.push(() => socket.destroy());
      const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      return { socket, closed };
    };
    /** Whether the server closed the connection (after a round trip of ours). */
    const isClosed = async (c: { socket: net.Socket; closed: Promise<'closed'> }) => {
      const answered = new Promise<'open'>((resolve) => c.socket.once('data', () => resolve('open')));
      c.socket.write(
        request('OPTIONS', `probe${Math.random()}`.replace('.', ''), '127.0.0.1').replace(
          'SIP/2.0/UDP',
          'SIP/2.0/TCP',
        ),
      );
      return (await Promise.race([c.closed, answered])) === 'closed';
    };
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await connect('127.0.0.1'));
    const fromOther = [];
    for (let i = 0; i < 3; i++) fromOther.push(await connect('127.0.0.2'));
    const closed = await Promise.all([...first, ...fromOther].map(isClosed));
    // Four of the first source's, then two of the other's (six in all); the rest are closed.
    expect(closed).toEqual([false, false, false, false, true, false, false, true]);
    // A connection that keeps talking stays; the silent ones go at 32 s.
    timers.advance(20_000);
    expect(await isClosed(first[0])).toBe(false);
    timers.advance(20_000);
    expect(await Promise.all([first[1], fromOther[0]].map(isClosed))).toEqual([true, true]);
    expect(await isClosed(first[0])).toBe(false);
  });

  it('rate-limits OPTIONS like new calls, and bounds the bytes of the answers it keeps to replay', async () => {
    // Manual timers: the rate's bucket does not refill while the test runs.
    const sip = await open({
      timers: new ManualSipTimers(),
      limits: { exemptLoopback: false, invitesPerSecond: 20 },
      replayCacheBytes: 100_000,
    });
    const scanner = await udpPeer('127.0.0.1');
    closers.push(() => scanner.socket.close());
    // 90 Vias of 400 bytes each: every answer copies them (about 36 KB).
    const vias = Array.from(
      { length: 90 },
      (_, i) => `Via: SIP/2.0/UDP 10.0.${i}.1:5060;branch=z9hG4bK${'v'.repeat(360)}${i}`,
    );
    // Four at a time: datagrams of 37 KB soon fill a socket's receive buffer.
    for (let batch = 0; batch < 25; batch++) {
      for (let i = batch * 4; i < batch * 4 + 4; i++)
        scanner.send(request('OPTIONS', `scan${i}`, scanner.at, vias), sip.port);
      await scanner.until((inbox) => inbox.length === batch * 4 + 4);
    }
    const statuses = statusesOf(scanner.inbox);
    expect(statuses.filter((s) => s === '200')).toHaveLength(40);
    expect(statuses.filter((s) => s === '503')).toHaveLength(60);
    expect(sip.stats().keptBytes).toBeLessThanOrEqual(100_000);
    expect(sip.stats().keptBytes).toBeGreaterThan(0);
  });

  it('answers a TCP double-CRLF keep-alive with a CRLF, and takes UDP ones silently (RFC 5626 4.4.1)', async () => {
    const warnings: string[] = [];
    const sip = await open({ onWarning: (message) => warnings.push(message) });
    const udp = await udpPeer('127.0.0.1');
    closers.push(() => udp.socket.close());
    udp.send('\r\n\r\n', sip.port);
    const socket = net.connect({ port: sip.port, host: '127.0.0.1' });
    closers.push(() => socket.destroy());
    const pong = await new Promise<string>((resolve) => {
      socket.once('data', (data) => resolve(data.toString('latin1')));
      socket.once('connect', () => socket.write('\r\n\r\n'));
    });
    expect(pong).toBe('\r\n');
    // The UDP one came first: had it been taken for a message, its warning would be here by now.
    expect(warnings).toEqual([]);
    expect(udp.inbox).toEqual([]);
  });
});
