import { describe, expect, it } from 'vitest';
import { compileProject, createDesignerHandler } from '../../src/designer/index.js';
import { createEngine, type EngineEvent } from '../../src/engine/index.js';
import { app } from './helpers.js';

const CONTROLLER = 'http://vd.test/visual-designer/services/apps/AP1/controller';

/** Runs one inbound call from `caller` through a designer fixture served in process. */
async function callThrough(fixture: string, keys: Array<{ at: number; keys: string }>) {
  const events: EngineEvent[] = [];
  const engine = createEngine({ seed: 3, onEvent: (e) => events.push(e) });
  engine.registerHandler(CONTROLLER, createDesignerHandler(app(fixture)));
  engine.setNumber('+15559999', { voiceUrl: CONTROLLER });
  engine.setParty('+15550001', { digits: keys });
  const call = engine.incomingCall('+15550001', '+15559999');
  await engine.runUntilIdle();
  const record = engine.getCall(call.sid);
  await engine.close();
  const verbs = events.flatMap((e) =>
    e.type === 'verb' ? [e.parent ? `${e.parent}/${e.verb}` : e.verb] : [],
  );
  const requests = events.flatMap((e) =>
    e.type === 'request' && e.url.startsWith(CONTROLLER) ? [{ url: e.url, digits: e.params.Digits }] : [],
  );
  return { record, verbs, requests };
}

describe('a compiled project as an in-process engine handler', () => {
  it('a call pressing 1 goes through the menu to the chosen module', async () => {
    const { record, verbs, requests } = await callThrough('gather-menu', [{ at: 1, keys: '1' }]);
    expect(requests).toEqual([
      { url: CONTROLLER, digits: undefined },
      { url: `${CONTROLLER}?target=start.step1.handle`, digits: '1' },
    ]);
    // The fall-through Say of the start module is not reached: the answer renders module1.
    expect(verbs).toEqual(['Gather', 'Gather/Say', 'Say']);
    expect(record?.status).toBe('completed');
  });

  it('an unmapped key re-renders the menu with the invalid message, then a valid key goes on', async () => {
    const { verbs, requests } = await callThrough('gather-menu', [
      { at: 1, keys: '9' },
      { at: 8, keys: '2' },
    ]);
    expect(requests.map((r) => r.digits)).toEqual([undefined, '9', '2']);
    expect(verbs).toEqual(['Gather', 'Gather/Say', 'Say', 'Gather', 'Gather/Say', 'Hangup']);
  });

  it("a caller's custom SIP header reaches the project as a core_ variable", async () => {
    const spoken: string[] = [];
    const engine = createEngine({ seed: 3 });
    const app = compileProject({
      header: { version: '1.15' },
      nodes: [{ name: 'start', steps: [{ kind: 'say', name: 'step1', phrase: 'Tenant $core_x_tenant_id' }] }],
    });
    const handler = createDesignerHandler(app);
    engine.registerHandler(CONTROLLER, async (req) => {
      const res = await handler(req);
      spoken.push(res.body);
      return res;
    });
    engine.setNumber('+15559999', { voiceUrl: CONTROLLER });
    engine.incomingCall('+15550001', '+15559999', { headers: { 'X-Tenant-Id': 'acme' } });
    await engine.runUntilIdle();
    await engine.close();
    expect(spoken[0]).toContain('<Say>Tenant acme</Say>');
  });

  it('no input falls through to the steps after the gather', async () => {
    const { verbs, requests } = await callThrough('gather-menu', []);
    expect(requests).toHaveLength(1);
    expect(verbs).toEqual(['Gather', 'Gather/Say', 'Say']);
  });
});
