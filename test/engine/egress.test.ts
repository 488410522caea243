/**
 * The egress policy: with `denyPrivateNetworks`, requests to loopback, private, link-local and
 * metadata addresses are refused at connection time (the address checked is the one connected
 * to), and a refused document ends like an unreachable URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressDeniedError, EgressGuard } from '../../src/engine/fetch/egress.js';
import { harness, rcml } from './harness.js';

const FALLBACK = 'http://app.test/fallback';
const DENY = { denyPrivateNetworks: true };

describe('egress policy: which addresses', () => {
  const guard = new EgressGuard(DENY);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    // IPv4-compatible and NAT64 forms reach the IPv4 address they carry.
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['0:0:0:0:0:0:a9fe:a9fe', 'link-local'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['64:ff9b::c0a8:101', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique local'],
    ['100.100.100.200', 'shared'],
    ['192.0.0.192', 'protocol assignment'],
    ['0.0.0.0', 'this network'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
  ])('refuses %s (%s)', (address, words) => {
    expect(guard.refusal(address)).toContain(words);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '100.128.0.1',
    '::8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('allows %s', (address) => {
    expect(guard.refusal(address)).toBeUndefined();
  });

  it('lets allow-list entries through, and refuses nothing when off', () => {
    const allowing = new EgressGuard({
      denyPrivateNetworks: true,
      allow: ['10.0.0.0/8', '::1', '127.0.0.1'],
    });
    expect(allowing.refusal('10.200.1.1')).toBeUndefined();
    expect(allowing.refusal('::1')).toBeUndefined();
    expect(allowing.refusal('127.0.0.2')).toContain('loopback');
    expect(new EgressGuard({ denyPrivateNetworks: false }).refusal('127.0.0.1')).toBeUndefined();
  });

  it('rejects an allow-list entry that is no address or block, naming it', () => {
    for (const bad of ['example.com', '10.0.0.0/33', '10.0.0.0/x', '::1/129', '1.2.3.4/8/1']) {
      expect(() => new EgressGuard({ denyPrivateNetworks: true, allow: [bad] })).toThrow(`'${bad}'`);
    }
  });

  it('resolves a host name to checked addresses only: localhost is refused', async () => {
    const err = await new Promise<unknown>((resolve) =>
      guard.lookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(err).toBeInstanceOf(EgressDeniedError);
    expect((err as Error).message).toMatch(
      /^localhost resolves to .+, a loopback address, refused by the egress policy$/,
    );
  });
});

describe('egress policy: requests', () => {
  let server: Server;
  let port = 0;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(rcml('<Say>Inside</Say>'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each([
    ['an IP literal', () => `http://127.0.0.1:${port}/app`, 'address 127.0.0.1 is a loopback address'],
    ['an IP literal in another notation', () => `http://2130706433:${port}/app`, 'address 127.0.0.1 is'],
    ['a name that resolves to loopback', () => `http://localhost:${port}/app`, 'localhost resolves to'],
  ])(
    'refuses %s: 11205 with the reason, then the fallback; nothing reaches the server',
    async (_, url, words) => {
      const before = hits;
      const h = harness({ '/fallback': rcml('<Say>Sorry</Say>') }, { http: { egress: DENY } });
      const call = h.engine.createCall({ From: '+1', To: '+2', Url: url(), FallbackUrl: FALLBACK });
      await h.engine.runUntilIdle();
      await h.engine.close();
      expect(hits).toBe(before);
      expect(h.notifications).toHaveLength(1);
      expect(h.notifications[0].code).toBe('11205');
      expect(h.notifications[0].message).toContain(words);
      expect(h.notifications[0].message).toContain('refused by the egress policy');
      expect(h.verbs(call.sid)).toEqual(['Say']);
    },
  );

  it('refuses status callbacks and media too, and lets an allowed address through', async () => {
    const h = harness(
      { '/app': rcml(`<Play>http://127.0.0.1:${port}/a.wav</Play>`) },
      { http: { egress: DENY } },
    );
    const call = h.engine.createCall({
      From: '+1',
      To: '+2',
      Url: 'http://app.test/app',
      StatusCallback: `http://127.0.0.1:${port}/cb`,
    });
    await h.engine.runUntilIdle();
    await h.engine.close();
    const refused = h.events.flatMap((e) => (e.type === 'response' && e.status === 0 ? [e.kind] : []));
    expect(refused).toEqual(['media', 'status-callback']);
    expect(h.notifications.map((n) => n.code)).toEqual(['13233', '11205']);
    expect(h.engine.getCall(call.sid)?.status).toBe('completed');

    const before = hits;
    const allowed = harness({}, { http: { egress: { ...DENY, allow: ['127.0.0.0/8'] } } });
    const ok = allowed.engine.createCall({ From: '+1', To: '+2', Url: `http://localhost:${port}/app` });
    await allowed.engine.runUntilIdle();
    await allowed.engine.close();
    expect(hits).toBe(before + 1);
    expect(allowed.verbs(ok.sid)).toEqual(['Say']);
  });
});
