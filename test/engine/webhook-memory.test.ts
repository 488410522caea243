/**
 * Memory while webhooks stream 1 GiB bodies: the engine runs in a child process of its own, so
 * that its resident set is measured alone, while this process serves the bodies.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, startHostileServer } from '../support/hostile-webhook.js';

const CHILD = join(import.meta.dirname, '../support/webhook-rss-child.ts');

describe('memory while webhooks stream 1 GiB', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('stays under 400 MB RSS with three calls fetching 1 GiB documents, then 1 GiB media', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, server.base, '3'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (d) => {
        text += d;
      });
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`child exited ${code}`))));
    });
    const { peakRssBytes, statuses } = JSON.parse(out) as { peakRssBytes: number; statuses: string[] };
    // Each document failed at the 1 MiB cap, the fallback played the media after a 64 KiB probe.
    expect(statuses).toEqual(['completed', 'completed', 'completed']);
    expect(server.hits.get('/gib')).toBe(6);
    expect(peakRssBytes).toBeLessThan(400 * 1024 * 1024);
    // What the server managed to write before each reader hung up: far from 6 GiB.
    expect(server.written.get('/gib')).toBeLessThan(256 * 1024 * 1024);
  });
});
