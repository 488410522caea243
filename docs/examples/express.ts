import express from 'express';
import { createEngineApp, createMemoryStore, createNodeListener, ensureAccount } from 'rcml-engine';

/** An Express app of its own, with the platform API mounted under /rcml. */
export async function start(port = 8080) {
  const store = createMemoryStore();
  const { account, authToken } = await ensureAccount(store, {}); // the token: shown this once
  const platform = await createEngineApp({ store, baseUrl: `http://127.0.0.1:${port}/rcml` });

  const web = express();
  web.use(express.urlencoded({ extended: false })); // the app's own body parser, for every route
  web.get('/', (_req, res) => {
    res.send('my app');
  });
  web.use('/rcml', createNodeListener(platform.app)); // the API at /rcml/platform/2012-04-24/...

  const server = web.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await platform.close();
  };
  return { server, account, authToken, close };
}
