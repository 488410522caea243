import { describe, expect, it } from 'vitest';
import { createDesignerHandler } from '../../src/designer/index.js';
import { app } from './helpers.js';

describe('createDesignerHandler', () => {
  it('reads the target from the URL query and renders with the request params', async () => {
    const handler = createDesignerHandler(app('gather-collect'));
    const res = await handler({
      url: '/services/apps/AP1/controller?target=start.step1.handle',
      method: 'POST',
      params: { Digits: '5' },
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/xml');
    expect(res.body).toContain('<Say>PIN 5</Say>');
  });

  it('takes the target from params too, and defaults to the start module', async () => {
    const handler = createDesignerHandler(app('say'));
    const byParam = await handler({
      url: 'http://h/controller',
      method: 'GET',
      params: { target: 'start', From: 'x' },
    });
    expect(byParam.body).toContain('<Say voice="woman" language="en" loop="2">Hello x</Say>');
    const start = await handler({ url: 'controller', method: 'GET', params: {} });
    expect(start.body).toContain('Hello');
  });
});
