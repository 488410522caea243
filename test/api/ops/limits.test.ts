import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/api/server.js';
import { createMemoryStore } from '../../../src/store/memory.js';

const sockets: Socket[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await s.close();
});

/** Sends a GET /health on a new connection; resolves with the status line, or 'closed'. */
function health(port: number): Promise<{ socket: Socket; answer: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      // A refused connection may be reset rather than closed: both read as 'closed'.
      socket.on('error', () => undefined);
      const answer = new Promise<string>((done) => {
        let text = '';
        socket.on('data', (d) => {
          text += d;
          if (text.includes('\r\n')) done(text.slice(0, text.indexOf('\r\n')));
        });
        socket.once('close', () => done(text ? text.slice(0, text.indexOf('\r\n')) : 'closed'));
      });
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      resolve({ socket, answer });
    });
  });
}

describe('HTTP limits', () => {
  it('refuses connections beyond maxConnections while the first stays open', async () => {
    const server = await startServer({
      store: createMemoryStore(),
      host: '127.0.0.1',
      port: 0,
      limits: { maxConnections: 1, keepAliveTimeoutMs: 60_000 },
    });
    servers.push(server);
    const first = await health(server.port);
    expect(await first.answer).toBe('HTTP/1.1 200 OK');
    const second = await health(server.port);
    expect(await second.answer).toBe('closed');
    first.socket.destroy();
    await new Promise((resolve) => first.socket.once('close', resolve));
    // Node counts the closed connection down asynchronously; a new one is served once it has.
    let third = await health(server.port);
    for (let i = 0; i < 20 && (await third.answer) === 'closed'; i++) third = await health(server.port);
    expect(await third.answer).toBe('HTTP/1.1 200 OK');
  });
});
