import { describe, expect, it } from 'vitest';
import { setupEnterprise } from './enterprise/harness.js';
import { ROOT_A, setup } from './harness.js';

/** Every parameter keeps all its values: a list reads them all, a single-valued one refuses more than one. */
describe('repeated parameters', () => {
  it('a platform list filter given twice is a 400 naming it, not one value kept', async () => {
    const { json } = await setup();
    for (const path of [
      `${ROOT_A}/Calls.json?Status=queued&Status=ringing`,
      `${ROOT_A}/Recordings.json?CallSid=CA1&CallSid=CA2`,
      `${ROOT_A}/Gathers/DTMF.json?CallSid=CA1&CallSid=CA2`,
      `${ROOT_A}/Notifications.json?Log=0&Log=1`,
      `${ROOT_A}/Calls.json?PageSize=2&PageSize=3`,
    ]) {
      const r = await json(path);
      expect(r.status, path).toBe(400);
      expect(r.body.message, path).toMatch(/given 2 times .*; expected once$/);
      expect(r.body.parameter, path).toBeDefined();
    }
    expect((await json(`${ROOT_A}/Calls.json?Status=queued`)).status).toBe(200);
  });

  it('an enterprise search filter given twice is a 400 naming it; a repeated form field is refused by name', async () => {
    const h = await setupEnterprise();
    const en = await h.enterprise();
    const r = await h.send('GET', '/taskrouter/workspaces/search?name=a&name=b');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('name: given 2 times; expected once');
    expect(r.body.data).toEqual({ name: ['a', 'b'] });
    const form = await h.send('POST', '/taskrouter/workspaces', undefined, {
      raw: `enterpriseSid=${en}&name=Sales&name=Support`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(400);
    expect(form.body.message).toMatch(/^name: /);
    expect(form.body.data.name).toEqual(['Sales', 'Support']);
  });

  it('a Call Queuing filter given twice is a 400', async () => {
    const { request } = await setup();
    const res = await request('/callqueue/queues?Name=a&Name=b');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { parameter: string }).parameter).toBe('Name');
  });
});
