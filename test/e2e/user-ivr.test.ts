import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Only what the package exports: `rcml-engine` and `rcml-engine/testing`.
import { type RcmlHandler, VoiceResponse } from '../../src/index.js';
import { arbitraryCaller, checkCallFlow, expectFlow, property, runFlow } from '../../src/testing.js';

/**
 * A user's IVR: a menu (1: sales, 2: support), with a seeded bug: the "press 2 again to
 * confirm" step has a Gather without action, so the confirmation is lost.
 */
function ivrDocument(path: string, params: Record<string, string>): string {
  const r = new VoiceResponse();
  if (path === '/voice') {
    r.gather({ numDigits: 1, action: '/menu', timeout: 5 }).say('Press 1 for sales, 2 for support.');
    r.redirect('/goodbye');
  } else if (path === '/menu') {
    if (params.Digits === '1') r.redirect('/sales');
    else if (params.Digits === '2') {
      r.gather({ numDigits: 1, timeout: 5 }).say('Press 2 again to confirm support.'); // the bug
      r.redirect('/goodbye');
    } else r.redirect('/voice');
  } else r.say(path.slice(1)).hangup();
  return r.toXml();
}

/** The IVR served by Express, as the user runs it. */
function ivr(): express.Express {
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.post(/.*/, (req, res) => res.type('text/xml').send(ivrDocument(req.path, req.body)));
  return app;
}

/** The same IVR in process: no server, the engine calls it directly. */
const inProcess: RcmlHandler = (req) => ({
  status: 200,
  contentType: 'text/xml',
  body: ivrDocument(new URL(req.url).pathname, req.params),
});

let server: Server;
let base = '';
beforeAll(async () => {
  server = ivr().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const pressing22Reaches = property('pressing 2, then 2 again, reaches support', (flow) =>
  flow.topCalls
    .filter((c) => c.inputs.filter((i) => i.used && i.value === '2').length >= 2)
    .every((c) => flow.reached(c.sid, `${base}/support`)),
);

describe('a user IVR (Express) tested with the exported toolkit', () => {
  it('over HTTP: a property finds the Gather without action and prints a readable shrunk timeline', async () => {
    const scenario = {
      until: 120,
      numbers: { '+15550100': { voiceUrl: `${base}/voice` } },
      calls: [{ at: 0, from: '+15551111', to: '+15550100' }],
    };
    const one = await runFlow({ ...scenario, parties: { '+15551111': { digits: [{ at: 1, keys: '1' }] } } });
    expectFlow(one).call(0).toEndWith('completed').toReach(`${base}/sales`);

    const result = await checkCallFlow({
      scenario,
      vary: {
        parties: { '+15551111': arbitraryCaller({ keys: { alphabet: '12', maxPresses: 3, within: 15 } }) },
      },
      properties: [pressing22Reaches],
      runs: 40,
      seed: 3,
      out: false,
    });
    expect(result.ok).toBe(false);
    const presses = result.counterexample!.scenario.parties!['+15551111']!.digits!.map((d) => d.keys);
    expect(presses).toEqual(['2', '2']);
    expect(result.report).toContain('"pressing 2, then 2 again, reaches support" failed');
    expect(result.report).toMatch(/party presses "2"[\s\S]*party presses "2"/);
    expect(result.report).toContain(`POST ${base}/goodbye`);
  });

  it('in process: the same app as a handler function, with the same property, finds the same bug', async () => {
    const result = await checkCallFlow({
      scenario: {
        until: 120,
        apps: { 'http://ivr.test/': inProcess },
        numbers: { '+15550100': { voiceUrl: 'http://ivr.test/voice' } },
        calls: [{ at: 0, from: '+15551111', to: '+15550100' }],
      },
      vary: {
        parties: { '+15551111': arbitraryCaller({ keys: { alphabet: '12', maxPresses: 3, within: 15 } }) },
      },
      properties: [
        property('pressing 2, then 2 again, reaches support', (flow) =>
          flow.topCalls
            .filter((c) => c.inputs.filter((i) => i.used && i.value === '2').length >= 2)
            .every((c) => flow.reached(c.sid, 'http://ivr.test/support')),
        ),
      ],
      runs: 40,
      seed: 3,
      out: false,
    });
    expect(result.ok).toBe(false);
    expect(result.counterexample!.scenario.parties!['+15551111']!.digits!.map((d) => d.keys)).toEqual([
      '2',
      '2',
    ]);
  });
});
