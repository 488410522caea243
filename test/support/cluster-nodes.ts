/** What the tests of real `rcml serve` nodes of one cluster share: their application, their start. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitOf, type ServeProcess, startServeProcess } from './serve-process.js';

type Cleanups = Array<() => Promise<void>>;

/** A request the application received: its path and form parameters. */
export interface AppRequest {
  path: string;
  params: Record<string, string>;
  /** The request's `X-Twilio-Signature`, when signed. */
  signature?: string;
}

/**
 * An application on 127.0.0.1 answering `<Response>` + the document of each path (404 for
 * others) and keeping every request; closed by `cleanups`.
 */
export async function documentServer(
  documents: Record<string, string>,
  cleanups: Cleanups,
): Promise<{
  url: string;
  requests: AppRequest[];
  of(path: string, callSid: string): Array<Record<string, string>>;
}> {
  const requests: AppRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const signature = req.headers['x-twilio-signature'];
      requests.push({
        path,
        params: Object.fromEntries(new URLSearchParams(body)),
        signature: typeof signature === 'string' ? signature : undefined,
      });
      const doc = documents[path];
      res.writeHead(doc ? 200 : 404, { 'Content-Type': 'text/xml' });
      res.end(doc ? `<Response>${doc}</Response>` : 'not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** Parameters of the requests for `path` made for `callSid`. */
    of: (path, callSid) =>
      requests.filter((r) => r.path === path && r.params.CallSid === callSid).map((r) => r.params),
  };
}

/**
 * Starts one `rcml serve` per entry of `nodes` (`--node-id` and a data directory of its own, then
 * `common`, then its own arguments) in the environment `env`, all at once; each is killed and
 * its directory removed by `cleanups`.
 */
export function startNodes(
  cleanups: Cleanups,
  env: Record<string, string>,
  common: string[],
  nodes: Array<{ id: string; args?: string[] }>,
): Promise<ServeProcess[]> {
  return Promise.all(
    nodes.map(async ({ id, args = [] }) => {
      const dir = mkdtempSync(join(tmpdir(), `rcml-${id}-`));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const node = await startServeProcess(['--node-id', id, '--data', dir, ...common, ...args], env);
      cleanups.push(async () => {
        node.child.kill('SIGKILL');
        await exitOf(node.child);
      });
      return node;
    }),
  );
}

/** Requests of one account to any node: `send` answers the response, `json` its parsed body. */
export function accountRequests(authorization: string) {
  const send = (base: string, path: string, body?: string) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
  const json = async (base: string, path: string, body?: string) =>
    (await (await send(base, path, body)).json()) as Record<string, unknown>;
  return { send, json };
}
