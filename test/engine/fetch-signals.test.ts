import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { createFetcher, RequestScope } from '../../src/engine/fetcher.js';
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

it('many requests in flight at once raise no listener-limit warning, and close() still aborts them all', async () => {
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    req.resume();
    held.push(() => res.end('<Response/>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const fetcher = createFetcher(new HandlerRegistry());
  try {
    const calls = Array.from({ length: 25 }, () => new AbortController());
    const pending = calls.map((call, i) =>
      fetcher.fetch({ url, method: 'POST', params: { i: String(i) }, signal: call.signal }),
    );
    await vi.waitFor(() => expect(held).toHaveLength(25));
    // Every call's signal carries exactly its own request's listener.
    for (const call of calls) expect(getEventListeners(call.signal, 'abort')).toHaveLength(1);
    await fetcher.close({ graceMs: 0 });
    const results = await Promise.all(pending);
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(0));
    expect(results.every((r) => r.error?.includes('the engine closed'))).toBe(true);
    for (const call of calls) expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  } finally {
    process.off('warning', onWarning);
    for (const release of held) release();
    server.closeAllConnections();
    server.close();
  }
});

it("a call's request scope aborts its requests in flight when it ends, and a request bound after the end at once", async () => {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`;
  const fetcher = createFetcher(new HandlerRegistry());
  const scope = new RequestScope();
  try {
    const pending = fetcher.fetch({ url, method: 'POST', params: {}, scope });
    scope.end(() => new Error('the call ended'));
    const aborted = await pending;
    expect(aborted.status).toBe(0);
    expect(aborted.error).toBe('the call ended');
    const late = await fetcher.fetch({ url, method: 'POST', params: {}, scope });
    expect(late.status).toBe(0);
    expect(late.error).toBe('the call ended');
  } finally {
    await fetcher.close({ graceMs: 0 });
    server.closeAllConnections();
    server.close();
  }
});
