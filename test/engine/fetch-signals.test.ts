import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { createFetcher } from '../../src/engine/fetcher.js';
import { HandlerRegistry } from '../../src/engine/handlers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

it('HTTP requests leave nothing attached to long-lived signals (no composite signals that Node 20 never frees)', async () => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('<Response/>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`;
  const any = vi.spyOn(AbortSignal, 'any');
  const fetcher = createFetcher(new HandlerRegistry());
  // A call's signal lives as long as the call, across all its requests.
  const call = new AbortController();
  try {
    for (let i = 0; i < 20; i++) {
      const res = await fetcher.fetch({ url, method: 'POST', params: { i: String(i) }, signal: call.signal });
      expect(res.status).toBe(200);
    }
    expect(any).not.toHaveBeenCalled();
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
    // The call's signal still aborts a request in flight.
    const slow = createServer(() => {});
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const pending = fetcher.fetch({
      url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
      method: 'GET',
      params: {},
      signal: call.signal,
    });
    call.abort(new Error('the call ended'));
    const aborted = await pending;
    expect(aborted.status).toBe(0);
    expect(aborted.error).toContain('the call ended');
    slow.closeAllConnections();
    slow.close();
  } finally {
    await fetcher.close({ graceMs: 0 });
    server.closeAllConnections();
    server.close();
  }
});
