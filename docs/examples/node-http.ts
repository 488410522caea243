import { createServer } from 'node:http';
import { createEngineApp, createMemoryStore, createNodeListener, ensureAccount } from 'rcml-engine';

/** A plain node:http server answering its own paths, and the platform API under /rcml. */
export async function start(port = 8080) {
  const store = createMemoryStore();
  const { account, authToken } = await ensureAccount(store, {}); // the token: shown this once
  const platform = await createEngineApp({ store, baseUrl: `http://127.0.0.1:${port}/rcml` });
  const listener = createNodeListener(platform.app);

  const server = createServer((req, res) => {
    if (req.url?.startsWith('/rcml/')) return void listener(req, res);
    res.end('my app');
  });
  server.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await platform.close();
  };
  return { server, account, authToken, close };
}
