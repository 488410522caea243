import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createMemoryStore } from '../../src/store/memory.js';

describe('GET {base_url}/', () => {
  it('answers where to go: the console, the API root, the OpenAPI document and the docs', async () => {
    const app = createApp({
      store: createMemoryStore(),
      baseUrl: 'http://127.0.0.1:8080/rcml',
      console: {},
    });
    const res = await app.fetch(new Request('http://127.0.0.1:8080/rcml/'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      console: 'http://127.0.0.1:8080/rcml/console/',
      api_root: 'http://127.0.0.1:8080/rcml/platform/2012-04-24',
      twilio_dialect: 'http://127.0.0.1:8080/rcml/2010-04-01',
      openapi: 'http://127.0.0.1:8080/rcml/openapi.json',
      docs: expect.stringContaining('docs/api.md'),
    });
  });

  it('takes links from the request without a base URL, and names no console when none is served', async () => {
    const app = createApp({ store: createMemoryStore() });
    const body = (await (await app.fetch(new Request('http://example.test:9000/'))).json()) as object;
    expect(body).toMatchObject({ api_root: 'http://example.test:9000/platform/2012-04-24' });
    expect(body).not.toHaveProperty('console');
  });
});
