import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { EgressPolicy } from '../../../src/engine/fetcher.js';
import { setupWithEngine } from './harness.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An external service on 127.0.0.1 that counts the requests reaching it. */
async function service() {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as { port: number };
  return { port, hits: () => hits };
}

/** An engine app whose application calls `url` as an external service, logging every line. */
async function appCalling(url: string, egress?: EgressPolicy) {
  const t = await setupWithEngine(egress ? { egress } : {});
  closers.push(() => t.close());
  const sid = await t.create({ name: 'es' });
  const structure = (await t.json(`/projects/${sid}`)).body;
  structure.nodes[0].steps = [
    {
      kind: 'externalService',
      name: 'step2',
      label: 'es',
      title: 'es',
      url,
      method: 'GET',
      assignments: [],
      urlParams: [],
      doRouting: false,
    },
    { kind: 'say', name: 'step3', label: 'say', title: 'say', phrase: 'Hello' },
  ];
  expect((await t.json(`/projects/${sid}`, t.send(structure, 'PUT'))).status).toBe(200);
  expect((await t.json(`/projects/${sid}/build`, { method: 'POST' })).status).toBe(200);
  await t.json(`/projects/${sid}/settings`, t.send({ logging: true, loggingES: true }));
  const render = async () => {
    const rcml = await (await t.request(`/apps/${sid}/controller?From=%2B1555`)).text();
    const log = await (await t.request(`/apps/${sid}/log`)).text();
    return { rcml, log };
  };
  return { render };
}

describe('external-service requests under the egress policy', () => {
  it.each([
    [
      'an IP literal',
      (port: number) => `http://127.0.0.1:${port}/api`,
      'address 127.0.0.1 is a loopback address',
    ],
    ['a host name', (port: number) => `http://localhost:${port}/api`, 'localhost resolves to'],
  ])(
    'are refused at %s when private networks are denied, and fail like any failed request',
    async (_what, urlOf, why) => {
      const es = await service();
      const app = await appCalling(urlOf(es.port), { denyPrivateNetworks: true });
      const { rcml, log } = await app.render();
      expect(es.hits()).toBe(0);
      expect(rcml).toContain('<Hangup/>');
      expect(rcml).not.toContain('Hello');
      expect(log).toMatch(
        /\[EXCEPTION\] request to \S+ failed: fetch failed: .*refused by the egress policy/,
      );
      expect(log).toContain(why);
    },
  );

  it('reach the service when nothing is denied, or its address is allowed', async () => {
    const es = await service();
    const open = await appCalling(`http://127.0.0.1:${es.port}/api`);
    expect((await open.render()).rcml).toContain('Hello');
    const allowed = await appCalling(`http://127.0.0.1:${es.port}/api`, {
      denyPrivateNetworks: true,
      allow: ['127.0.0.0/8', '::1'],
    });
    expect((await allowed.render()).rcml).toContain('Hello');
    expect(es.hits()).toBe(2);
  });
});
