import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/engine/fetcher.js';
import { HandlerRegistry } from '../../src/engine/handlers.js';
import { createEngine, type EngineEvent } from '../../src/engine/index.js';

const DOCS: Record<string, string> = {
  '/ivr':
    '<Response><Say>Hi</Say><Gather action="/menu" numDigits="1"><Say>Press 1</Say></Gather></Response>',
  '/menu': '<Response><Redirect>/end</Redirect></Response>',
  '/end': '<Response><Say>Bye</Say><Hangup/></Response>',
};

interface Held {
  path: string;
  res: ServerResponse;
}

/**
 * A server that holds requests until `wave` of them are there, then answers them all at once
 * in the order `order` gives (arrival order, or its reverse), recording that order.
 */
function holdingServer(wave: number) {
  let held: Held[] = [];
  const state = { order: 'arrival' as 'arrival' | 'reverse', answered: [] as string[] };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      held.push({ path: `${path} ${new URLSearchParams(body).get('CallSid') ?? ''}`, res });
      if (held.length < wave) return;
      const batch = state.order === 'reverse' ? held.reverse() : held;
      held = [];
      for (const h of batch) {
        state.answered.push(h.path);
        h.res.writeHead(200, { 'content-type': 'text/xml' });
        h.res.end(DOCS[h.path.split(' ')[0]] ?? '<Response/>');
      }
    });
  });
  return { server, state };
}

describe('HTTP answers on the virtual clock', () => {
  const { server, state } = holdingServer(4);
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function trace(order: 'arrival' | 'reverse'): Promise<{ events: EngineEvent[]; answered: string[] }> {
    state.order = order;
    state.answered = [];
    const events: EngineEvent[] = [];
    const engine = createEngine({ seed: 7, onEvent: (e) => events.push(e) });
    engine.setNumber('+1000', { voiceUrl: `${base}/ivr` });
    engine.setDefaultParty({ digits: [{ at: 1, keys: '1' }] });
    for (let i = 0; i < 4; i++) engine.incomingCall(`+155500${i}`, '+1000');
    await engine.runUntilIdle();
    await engine.close();
    return { events, answered: state.answered };
  }

  it('hands answers back in request order, so that a run is the same whatever order the server answers in', async () => {
    const forward = await trace('arrival');
    const reversed = await trace('reverse');
    // The server did answer in another order...
    expect(reversed.answered).not.toEqual(forward.answered);
    expect(reversed.answered).toHaveLength(12);
    // ...and the engine saw the same run, event for event.
    expect(reversed.events).toEqual(forward.events);
    const requests = forward.events.filter((e) => e.type === 'request').map((e) => e.id);
    const responses = forward.events.filter((e) => e.type === 'response').map((e) => e.id);
    expect(responses).toEqual(requests);
    expect(forward.events.filter((e) => e.type === 'call-status' && e.status === 'completed')).toHaveLength(
      4,
    );
  });

  it("runs one answer's continuations to the end before the next answer is handed over", async () => {
    state.order = 'reverse';
    const fetcher = createFetcher(new HandlerRegistry(), { ordered: true });
    const seen: string[] = [];
    const fetch = (path: string) =>
      Promise.resolve(fetcher.fetch({ url: `${base}${path}`, method: 'POST', params: { CallSid: path } }));
    const first = fetch('/ivr')
      .then(() => seen.push('first 1'))
      .then(() => seen.push('first 2'))
      .then(() => seen.push('first 3'));
    const rest = ['/menu', '/end', '/ivr'].map((path, i) =>
      fetch(path)
        .then(() => seen.push(`next ${i} 1`))
        .then(() => seen.push(`next ${i} 2`)),
    );
    await Promise.all([first, ...rest]);
    await fetcher.close();
    expect(seen).toEqual([
      'first 1',
      'first 2',
      'first 3',
      'next 0 1',
      'next 0 2',
      'next 1 1',
      'next 1 2',
      'next 2 1',
      'next 2 2',
    ]);
  });
});
