import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureAccount, startServer } from '../../../src/api/server.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { basic } from '../harness.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function server() {
  const store = createMemoryStore();
  const { account, authToken } = await ensureAccount(store, {});
  const s = await startServer({ store, host: '127.0.0.1', port: 0, maxBodyBytes: 64 });
  opened.push(s);
  return {
    url: `${s.url}/platform/2012-04-24/Accounts/${account.sid}.json`,
    auth: basic(account.sid, authToken as string),
  };
}

/** POSTs `chunks` one write each (chunked unless `length` is given), answers status and JSON. */
function post(
  url: string,
  headers: Record<string, string>,
  chunks: string[],
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('form and JSON bodies over a real port', () => {
  it('are read whole when they arrive in pieces, as forms and as JSON', async () => {
    const s = await server();
    const form = { authorization: s.auth, 'content-type': 'application/x-www-form-urlencoded' };
    const byForm = await post(s.url, form, ['Friendly', 'Name=Bench%20', 'one']);
    expect(byForm).toMatchObject({ status: 200, body: { friendly_name: 'Bench one' } });
    const json = { authorization: s.auth, 'content-type': 'application/json' };
    const byJson = await post(s.url, json, ['{"FriendlyName":', '"\u00e9t\u00e9"}']);
    expect(byJson).toMatchObject({ status: 200, body: { friendly_name: '\u00e9t\u00e9' } });
  });

  it('past the byte limit are refused with 413, announced or streamed', async () => {
    const s = await server();
    const big = `FriendlyName=${'a'.repeat(80)}`;
    const type = 'application/x-www-form-urlencoded';
    const announced = await post(
      s.url,
      { authorization: s.auth, 'content-type': type, 'content-length': String(big.length) },
      [big],
    );
    expect(announced).toMatchObject({ status: 413, body: { code: 20413 } });
    const streamed = await post(s.url, { authorization: s.auth, 'content-type': type }, [
      big.slice(0, 40),
      big.slice(40),
    ]);
    expect(streamed.status).toBe(413);
    // The connection serves the next request.
    const ok = await post(s.url, { authorization: s.auth, 'content-type': type }, ['FriendlyName=b']);
    expect(ok).toMatchObject({ status: 200, body: { friendly_name: 'b' } });
  });
});
