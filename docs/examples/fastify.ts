import Fastify from 'fastify';
import { createEngineApp, createMemoryStore, createNodeListener, ensureAccount } from 'rcml-engine';

/** A Fastify app of its own, with the platform API mounted under /rcml. */
export async function start(port = 8080) {
  const store = createMemoryStore();
  const { account, authToken } = await ensureAccount(store, {}); // the token: shown this once
  const platform = await createEngineApp({ store, baseUrl: `http://127.0.0.1:${port}/rcml` });
  const listener = createNodeListener(platform.app);

  const web = Fastify();
  web.get('/', async () => 'my app');
  await web.register(async (api) => {
    // Under /rcml the body is left unread: the listener reads it itself.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', (_request, _payload, done) => done(null));
    api.all('/rcml/*', async (request, reply) => {
      reply.hijack();
      await listener(request.raw, reply.raw);
    });
  });

  await web.listen({ port, host: '127.0.0.1' });
  const close = async () => {
    await web.close();
    await platform.close();
  };
  return { server: web.server, account, authToken, close };
}
