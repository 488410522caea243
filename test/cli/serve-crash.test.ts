/**
 * `rcml serve` killed mid-load loses no acknowledged call: the server runs as a child process
 * on 127.0.0.1 with its calls' webhook beside it, POST Calls come at full speed, SIGKILL lands
 * at a seeded moment; after a restart every call whose POST got a 2xx is listed and closed,
 * and the database passes its integrity check. A few seeds here, 200 with RCML_DEEP=1.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, startServeProcess } from '../support/serve-process.js';

const ACCOUNT = `AC${'d'.repeat(32)}`;
const TOKEN = 'crash-test-token';
const AUTH = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;
const SEEDS = process.env.RCML_DEEP ? 200 : 3;
const CONCURRENCY = 16;
const TERMINAL = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

/** mulberry32: a small seeded generator, so a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let webhook: Server;
let voiceUrl: string;
beforeAll(async () => {
  // Calls last a moment, so a kill finds them in every state.
  webhook = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end('<Response><Say>Hello</Say><Pause length="1"/><Hangup/></Response>');
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  voiceUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/voice`;
});
afterAll(async () => {
  webhook.closeAllConnections();
  await new Promise((resolve) => webhook.close(resolve));
});

function serve(data: string): Promise<{ url: string; child: ChildProcess }> {
  return startServeProcess(['--data', data, '--account-sid', ACCOUNT, '--auth-token', TOKEN], {
    RCML_DRAIN_SECONDS: '0',
  });
}

const exited = exitOf;

/** POSTs Calls from several connections until the server is killed; the sids it acknowledged. */
async function loadUntilKilled(url: string, child: ChildProcess, killAfterMs: number): Promise<string[]> {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  const acknowledged: string[] = [];
  const body = new URLSearchParams({ From: '+15550001', To: '+15550002', Url: voiceUrl }).toString();
  let dead = false;
  const death = exited(child).then(() => {
    dead = true;
  });
  const worker = async () => {
    while (!dead) {
      try {
        const res = await pool.request({
          method: 'POST',
          path: `/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json`,
          headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const text = await res.body.text();
        if (res.statusCode >= 200 && res.statusCode < 300) {
          acknowledged.push((JSON.parse(text) as { sid: string }).sid);
          // The moment counts from the first acknowledged call, so every run kills a loaded server.
          if (acknowledged.length === 1) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
      } catch {
        // The connection died with the server: not acknowledged.
      }
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  await death;
  await Promise.all(workers);
  await pool.destroy();
  return acknowledged;
}

/** Every call of the account, through the REST list, page by page. */
async function listed(url: string): Promise<Map<string, string>> {
  const calls = new Map<string, string>();
  let next: string | null = `/platform/2012-04-24/Accounts/${ACCOUNT}/Calls.json?PageSize=1000`;
  while (next) {
    const res = await fetch(`${url}${next}`, { headers: { Authorization: AUTH } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      calls: Array<{ sid: string; status: string }>;
      next_page_uri: string | null;
    };
    for (const c of page.calls) calls.set(c.sid, c.status);
    // The platform writes a missing link as the string 'null'.
    next = page.next_page_uri === 'null' ? null : page.next_page_uri;
  }
  return calls;
}

describe('rcml serve killed under load', () => {
  it.each(Array.from({ length: SEEDS }, (_, i) => i + 1))(
    'keeps every acknowledged call, closed, and a sound database (seed %i)',
    async (seed) => {
      const data = mkdtempSync(join(tmpdir(), 'rcml-crash-'));
      try {
        const first = await serve(data);
        const acknowledged = await loadUntilKilled(
          first.url,
          first.child,
          150 + Math.floor(random(seed)() * 600),
        );
        expect(first.child.signalCode).toBe('SIGKILL');
        expect(acknowledged.length).toBeGreaterThan(0);

        const second = await serve(data);
        try {
          const calls = await listed(second.url);
          const missing = acknowledged.filter((sid) => !calls.has(sid));
          const open = acknowledged.filter((sid) => !TERMINAL.has(calls.get(sid) as string));
          expect({ missing, open }).toEqual({ missing: [], open: [] });
        } finally {
          second.child.kill('SIGKILL');
          await exited(second.child);
        }
        const db = new Database(join(data, 'rcml.sqlite'), { readonly: true });
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          db.close();
        }
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
