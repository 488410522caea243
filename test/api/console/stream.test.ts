/** The console's event stream, call timelines and designer graphs, over HTTP. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDesignerProject } from '../../../src/api/designer-application.js';
import { ACCOUNT, type ConsoleServer, OTHER, OTHER_TOKEN, startConsoleServer, TOKEN } from './setup.js';

let s: ConsoleServer;
beforeAll(async () => {
  s = await startConsoleServer();
});
afterAll(() => s?.close());

async function cookieOf(sid: string, token: string): Promise<string> {
  const res = await fetch(`${s.url}/console/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ accountSid: sid, authToken: token }),
  });
  return (res.headers.get('Set-Cookie') ?? '').split(';')[0];
}

/** Reads server-sent events until `done` says enough. */
async function readEvents(
  cookie: string,
  done: (events: Array<{ event: string; data: Record<string, unknown> }>) => boolean,
  started: () => Promise<void>,
) {
  const controller = new AbortController();
  const res = await fetch(`${s.url}/console/api/events`, {
    headers: { Cookie: cookie },
    signal: controller.signal,
  });
  expect(res.headers.get('Content-Type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  let buffer = '';
  let kicked = false;
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
      cut = buffer.indexOf('\n\n');
    }
    if (!kicked && events.length > 0) {
      kicked = true;
      await started();
    }
  }
  controller.abort();
  return events;
}

describe('the console stream', () => {
  it("streams a snapshot, then the account's calls and their events, and nothing of other accounts", async () => {
    const mine = await cookieOf(ACCOUNT, TOKEN);
    const theirs = await cookieOf(OTHER, OTHER_TOKEN);
    let sid = '';
    const otherEvents: string[] = [];
    const otherStream = readEvents(
      theirs,
      (events) => {
        otherEvents.push(...events.slice(otherEvents.length).map((e) => e.event));
        return events.length >= 1;
      },
      async () => {},
    );
    const events = await readEvents(
      mine,
      (list) =>
        list.some((e) => e.event === 'call' && (e.data.call as { status: string }).status === 'completed'),
      async () => {
        const res = await s.api('/sim/Calls', { From: '+15551234', To: '+15550100' });
        sid = ((await res.json()) as { sid: string }).sid;
        await s.advance(30);
      },
    );
    expect(events[0].event).toBe('snapshot');
    const statuses = events
      .filter((e) => e.event === 'call')
      .map((e) => e.data.call as { sid: string; status: string })
      .filter((c) => c.sid === sid)
      .map((c) => c.status);
    expect(statuses).toEqual(['ringing', 'in-progress', 'completed']);
    const verbs = events
      .filter((e) => e.event === 'event' && (e.data.event as { type: string }).type === 'verb')
      .map((e) => (e.data.event as { verb: string }).verb);
    expect(verbs).toEqual(['Say', 'Record', 'Hangup']);
    expect(await otherStream).toHaveLength(1);
    expect(otherEvents).toEqual(['snapshot']);

    // The timeline keeps the events; another account does not see it.
    const timeline = await fetch(`${s.url}/console/api/calls/${sid}/timeline`, { headers: { Cookie: mine } });
    const body = (await timeline.json()) as { call: { status: string }; events: Array<{ type: string }> };
    expect(body.call.status).toBe('completed');
    expect(body.events.filter((e) => e.type === 'request').length).toBeGreaterThan(0);
    const hidden = await fetch(`${s.url}/console/api/calls/${sid}/timeline`, { headers: { Cookie: theirs } });
    expect(hidden.status).toBe(404);
    const snapshot = await readEvents(
      mine,
      (list) => list.length >= 1,
      async () => {},
    );
    expect((snapshot[0].data.calls as Array<{ sid: string }>)[0].sid).toBe(sid);
  });

  it('lists and draws an application run from a project file (rcml serve --project), for its account only', async () => {
    const project = JSON.parse(
      readFileSync(new URL('../../../fixtures/designer/gather-menu.json', import.meta.url), 'utf8'),
    );
    const { application } = await serveDesignerProject(s.server.engine, s.store, {
      accountSid: ACCOUNT,
      baseUrl: s.server.baseUrl,
      project,
      key: 'gather-menu.json',
      servedProjects: s.server.servedProjects,
    });
    const mine = await cookieOf(ACCOUNT, TOKEN);
    const listed = await fetch(`${s.url}/console/api/apps`, { headers: { Cookie: mine } });
    expect(await listed.json()).toEqual([
      { sid: application.sid, name: 'Visual Designer application', kind: 'project file' },
    ]);
    const graph = await fetch(`${s.url}/console/api/apps/${application.sid}/graph`, {
      headers: { Cookie: mine },
    });
    expect(graph.status).toBe(200);
    expect((await graph.text()).startsWith('flowchart TD\n')).toBe(true);
    const theirs = await cookieOf(OTHER, OTHER_TOKEN);
    expect(await (await fetch(`${s.url}/console/api/apps`, { headers: { Cookie: theirs } })).json()).toEqual(
      [],
    );
    const other = await fetch(`${s.url}/console/api/apps/${application.sid}/graph`, {
      headers: { Cookie: theirs },
    });
    expect(other.status).toBe(404);
  });

  it("draws a designer application's graph as Mermaid, for its own account only", async () => {
    const created = await s.api(
      '/visual-designer/services/projects?name=Desk&template=TL00000000000000000000000000000001',
      {},
    );
    const { sid } = (await created.json()) as { sid: string };
    const mine = await cookieOf(ACCOUNT, TOKEN);
    const graph = await fetch(`${s.url}/console/api/apps/${sid}/graph`, { headers: { Cookie: mine } });
    expect(graph.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    const text = await graph.text();
    expect(text.startsWith('flowchart TD\n')).toBe(true);
    expect(text).toContain('-->|"1"|');
    const theirs = await cookieOf(OTHER, OTHER_TOKEN);
    expect(
      (await fetch(`${s.url}/console/api/apps/${sid}/graph`, { headers: { Cookie: theirs } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${s.url}/console/api/apps/nonsense/graph`, { headers: { Cookie: mine } })).status,
    ).toBe(404);
    expect((await fetch(`${s.url}/console/api/nothing-here`, { headers: { Cookie: mine } })).status).toBe(
      404,
    );
  });
});
