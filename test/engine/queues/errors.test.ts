import { afterEach, describe, expect, it } from 'vitest';
import { registerVerb } from '../../../src/engine/index.js';
import { enqueueVerb } from '../../../src/engine/verbs/enqueue.js';
import { faxVerb } from '../../../src/engine/verbs/fax.js';
import { flakyStore, queueHarness, rcml, statusOf } from './setup.js';

const AFTER = rcml('<Say>after</Say>');

describe('Enqueue QueueResult error and system-error', () => {
  afterEach(() => registerVerb('Fax', faxVerb));

  it('error: a waitUrl that is not a URI queues nothing and goes to the action', async () => {
    const h = queueHarness(rcml('<Enqueue waitUrl="http://[bad" action="/after">q</Enqueue>'), rcml(''), {
      '/after': AFTER,
    });
    const a = h.agent();
    await h.engine.advance(5);
    expect(h.paramsOf('/after')).toEqual([
      expect.objectContaining({ CallSid: a, QueueResult: 'error', QueueSid: '', QueueTime: '0' }),
    ]);
    expect(h.notifications).toContainEqual(
      expect.objectContaining({
        callSid: a,
        code: '11100',
        log: 0,
        message: expect.stringContaining('not queued'),
      }),
    );
    expect(await h.engine.getQueue('q')).toBeUndefined();
    expect(h.verbs(a)).toEqual(['Enqueue', 'Say']);
  });

  it('error: a queue request the matcher refuses (a blank name built without the parser)', async () => {
    registerVerb('Fax', (ctx) => enqueueVerb(ctx, { verb: 'Enqueue', name: '  ', action: '/after' }));
    const h = queueHarness(rcml('<Fax>x</Fax>'), rcml(''), { '/after': AFTER });
    const a = h.agent();
    await h.engine.advance(5);
    expect(h.paramsOf('/after')).toEqual([expect.objectContaining({ QueueResult: 'error', QueueSid: '' })]);
    expect(h.notifications).toContainEqual(expect.objectContaining({ callSid: a, code: '14303', log: 0 }));
    expect(await h.engine.listQueues()).toEqual([]);
  });

  it('system-error: the queue store fails when the call arrives', async () => {
    const { store, failing } = flakyStore();
    failing.add('enqueue');
    const h = queueHarness(
      rcml('<Enqueue action="/after">q</Enqueue>'),
      rcml(''),
      { '/after': AFTER },
      100,
      store,
    );
    const a = h.agent();
    await h.engine.advance(5);
    expect(h.paramsOf('/after')).toEqual([
      expect.objectContaining({ CallSid: a, QueueResult: 'system-error' }),
    ]);
    expect(h.notifications).toContainEqual(
      expect.objectContaining({
        code: '14304',
        log: 0,
        message: "engine.queue-store: Enqueue 'q': queue store failed: store down (enqueue)",
      }),
    );
    expect(statusOf(h, a)).toBe('completed');
  });

  it('system-error: the store fails while the call waits; it leaves the queue and nobody is matched with it', async () => {
    const { store, failing } = flakyStore();
    const h = queueHarness(
      rcml('<Enqueue waitUrl="/wait" action="/after">q</Enqueue>'),
      rcml('<Dial timeout="5" action="/dialed"><Queue>q</Queue></Dial>'),
      { '/wait': rcml('<Pause length="4"/>'), '/after': rcml('<Pause length="30"/>'), '/dialed': AFTER },
      100,
      store,
    );
    const a = h.agent();
    await h.engine.advance(10);
    failing.add('position');
    await h.engine.advance(4);
    const after = h.paramsOf('/after');
    expect(after).toEqual([expect.objectContaining({ QueueResult: 'system-error', QueueTime: '12' })]);
    expect(after[0].QueueSid).toMatch(/^QU[0-9a-f]{32}$/);
    failing.clear();
    expect((await h.engine.getQueue('q'))?.enqueued.size).toBe(0);
    // A customer arriving later is not matched with the call that left: it times out.
    h.customer();
    await h.engine.advance(6);
    expect(h.paramsOf('/dialed')).toEqual([expect.objectContaining({ DialCallStatus: 'no-answer' })]);
    expect(statusOf(h, a)).toBe('in-progress');
    expect(h.verbs(a).at(-1)).toBe('Pause');
  });

  it('Dial+Queue on a failing store ends the Dial failed', async () => {
    const { store, failing } = flakyStore();
    failing.add('ensureQueue');
    const h = queueHarness(
      rcml(''),
      rcml('<Dial action="/dialed"><Queue>q</Queue></Dial>'),
      { '/dialed': AFTER },
      100,
      store,
    );
    const c = h.customer();
    await h.engine.advance(2);
    expect(h.paramsOf('/dialed')).toEqual([
      expect.objectContaining({ CallSid: c, DialCallStatus: 'failed' }),
    ]);
    expect(h.notifications).toContainEqual(expect.objectContaining({ callSid: c, code: '14304' }));
  });
});
