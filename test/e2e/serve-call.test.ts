import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A local RCML application: a one-key menu whose action records up to 5 s. */
async function startRcmlApp(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const digits = new URLSearchParams(body).get('Digits');
      seen.push(`${req.method} ${req.url}${digits ? ` Digits=${digits}` : ''}`);
      const doc =
        req.url === '/after'
          ? '<Record maxLength="5"/>'
          : '<Gather numDigits="1" action="/after"><Say>Press 1</Say></Gather>';
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end(`<Response>${doc}</Response>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Starts `rcml serve` on a free port and resolves with its address and account once it listens. */
function startServe(data: string): Promise<{ url: string; sid: string; token: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--clock', 'virtual', '--data', data],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const sid = /account sid: (AC[0-9a-f]{32})/.exec(out)?.[1];
      const token = /auth token: (\S+)/.exec(out)?.[1];
      if (url && sid && token) resolve({ url, sid, token, child });
    });
    child.on('exit', (code) => reject(new Error(`rcml serve exited ${code}: ${err}`)));
  });
}

describe('rcml serve end to end', () => {
  it('places a call to a local RCML app, takes a key, and serves the recording as WAV', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rcml-e2e-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const rcmlApp = await startRcmlApp();
    const serve = await startServe(data);
    const root = `${serve.url}/platform/2012-04-24/Accounts/${serve.sid}`;
    const auth = `Basic ${Buffer.from(`${serve.sid}:${serve.token}`).toString('base64')}`;
    const post = async (url: string, fields: Record<string, string>) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const get = async (url: string) =>
      (await (await fetch(url, { headers: { Authorization: auth } })).json()) as Record<string, unknown>;

    const created = await post(`${root}/Calls.json`, {
      From: '+15551111',
      To: '+15552222',
      Url: `${rcmlApp.url}/ivr`,
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('queued');
    const callSid = created.body.sid as string;

    expect((await post(`${serve.url}/sim/Advance`, { Seconds: '1' })).status).toBe(200);
    expect((await get(`${root}/Calls/${callSid}.json`)).status).toBe('in-progress');
    expect((await post(`${serve.url}/sim/Calls/${callSid}/Digits`, { Digits: '1' })).status).toBe(200);
    const advanced = await post(`${serve.url}/sim/Advance`, { Seconds: '10' });
    expect(advanced.status).toBe(200);

    expect(rcmlApp.seen).toEqual(['POST /ivr', 'POST /after Digits=1']);
    expect(await get(`${root}/Calls/${callSid}.json`)).toMatchObject({ status: 'completed' });
    expect((await get(`${root}/Gathers/DTMF.json?CallSid=${callSid}`)).gathers).toHaveLength(1);
    const { recordings } = (await get(`${root}/Recordings.json`)) as {
      recordings: Array<Record<string, string>>;
    };
    expect(recordings).toHaveLength(1);
    expect(recordings[0]).toMatchObject({ call_sid: callSid, duration: '5.0' });

    // The audio needs no credentials.
    const wav = await fetch(recordings[0].file_uri);
    expect(wav.status).toBe(200);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await wav.arrayBuffer());
    const dataBytes = 5 * 8000 * 2; // 5 s of 8 kHz mono 16-bit
    expect(bytes.length).toBe(44 + dataBytes);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(bytes.readUInt16LE(20)).toBe(1); // PCM
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    expect(bytes.readUInt32LE(24)).toBe(8000);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(bytes.toString('ascii', 36, 40)).toBe('data');
    expect(bytes.readUInt32LE(40)).toBe(dataBytes);

    // SIGTERM shuts the engine, server and store down cleanly.
    const exited = new Promise((resolve) => serve.child.once('exit', (code) => resolve(code)));
    serve.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 20_000);
});
