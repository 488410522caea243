import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { ensureAccount, startServer } from '../../api/server.js';
import { openSqliteStore } from '../../store/sqlite/open.js';

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

function baseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL');
  }
  return value;
}

interface ServeOptions {
  port: number;
  host: string;
  data: string;
  clock: 'real' | 'virtual';
  baseUrl?: string;
  accountSid?: string;
  authToken?: string;
}

/** Registers `rcml serve`: the platform REST API over a SQLite store in the data directory. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the platform REST API (records in SQLite under --data)')
    .addOption(
      new Option('--port <port>', 'port to listen on (0 picks a free one)').default(8080).argParser(port),
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'data directory (SQLite database and recordings)', './data')
    .addOption(
      new Option('--clock <clock>', 'clock of the call engine').choices(['real', 'virtual']).default('real'),
    )
    .addOption(
      new Option('--base-url <url>', '{base_url} of links (default http://host:port)').argParser(baseUrl),
    )
    .addOption(new Option('--account-sid <sid>', 'account to serve').env('RCML_ACCOUNT_SID'))
    .addOption(new Option('--auth-token <token>', 'its auth token').env('RCML_AUTH_TOKEN'))
    .action(async (options: ServeOptions) => {
      const store = openSqliteStore({ dir: options.data });
      let ensured: ReturnType<typeof ensureAccount>;
      try {
        ensured = ensureAccount(store, { sid: options.accountSid, authToken: options.authToken });
      } catch (err) {
        store.close();
        throw err;
      }
      const server = await startServer({
        store,
        host: options.host,
        port: options.port,
        baseUrl: options.baseUrl,
      });
      const lines = [`rcml serve: listening on ${server.url} (data ${options.data}, clock ${options.clock})`];
      if (store.interruptedCalls.length > 0) {
        lines.push(`closed ${store.interruptedCalls.length} call(s) left live by the previous run`);
      }
      if (ensured.created) lines.push(`auth token: ${ensured.account.authToken}`);
      // Last, in one write, so a reader that sees the sid has everything.
      lines.push(`account sid: ${ensured.account.sid}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      const stop = () => {
        void server.close().finally(() => store.close());
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
