import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { ACCOUNT_A, account, tokenOf } from '../store/fixtures.js';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A self-signed certificate for 127.0.0.1, made with the openssl command. */
function selfSigned(): { dir: string; certFile: string; keyFile: string; cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'rcml-tls-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { dir, certFile, keyFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

/** GET over HTTPS trusting only `ca`. */
async function get(url: string, ca: Buffer, headers: Record<string, string> = {}) {
  const agent = new Agent({ connect: { ca } });
  cleanups.push(() => agent.close());
  const res = await request(url, { dispatcher: agent, headers });
  return { status: res.statusCode, body: await res.body.text() };
}

const auth = (sid: string, token: string) => ({
  Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
});

describe.skipIf(!hasOpenssl)('HTTPS (openssl present)', () => {
  it('startServer with tls serves the API over HTTPS, with https links', async () => {
    const tls = selfSigned();
    const store = createMemoryStore();
    await store.accounts.put(account(ACCOUNT_A));
    const server = await startServer({
      store,
      host: '127.0.0.1',
      port: 0,
      tls: { cert: tls.cert, key: tls.key },
    });
    cleanups.push(() => server.close());
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(
      `${server.url}/platform/2012-04-24/Accounts/${ACCOUNT_A}/Calls.json`,
      tls.cert,
      auth(ACCOUNT_A, tokenOf(ACCOUNT_A)),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).total).toBe(0);
    // Plain HTTP on the same port is not served.
    await expect(fetch(server.url.replace('https:', 'http:'))).rejects.toThrow();
  });

  it('rcml serve --tls-cert --tls-key listens on https', async () => {
    const tls = selfSigned();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'serve',
        '--port',
        '0',
        '--data',
        join(tls.dir, 'data'),
        '--clock',
        'virtual',
      ],
      {
        env: { ...process.env, RCML_TLS_CERT: tls.certFile, RCML_TLS_KEY: tls.keyFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(
      () =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    );
    const out = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout?.on('data', (d) => {
        text += d;
        if (/account sid: AC/.test(text)) resolve(text);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const url = /listening on (https:\/\/\S+)/.exec(out)?.[1] as string;
    expect(url).toBeDefined();
    const sid = /account sid: (AC[0-9a-f]{32})/.exec(out)?.[1] as string;
    const token = /auth token: ([0-9a-f]{32})/.exec(out)?.[1] as string;
    const res = await get(
      `${url}/platform/2012-04-24/Accounts/${sid}/Calls.json`,
      tls.cert,
      auth(sid, token),
    );
    expect(res.status).toBe(200);
  });
});

describe('rcml serve TLS usage errors', () => {
  it('needs both --tls-cert and --tls-key, and readable files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcml-tls-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', dir, ...args], {
        encoding: 'utf8',
      });
    const half = run('--tls-cert', join(dir, 'cert.pem'));
    expect(half.status).toBe(2);
    expect(half.stderr).toContain('give both --tls-cert and --tls-key');
    const missing = run('--tls-cert', join(dir, 'nope.pem'), '--tls-key', join(dir, 'nope.key'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`--tls-cert ${join(dir, 'nope.pem')}`);
  });
});
