import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { rotateAuthToken } from '../../store/credentials.js';
import type { Store } from '../../store/ports.js';
import { openPostgresStore } from '../../store/postgres/open.js';
import { ACCOUNT_SID_PATTERN } from '../../store/sid.js';
import { openSqliteStore } from '../../store/sqlite/open.js';
import type { CommandOutcome } from './outcome.js';
import { printOutcome } from './outcome.js';

/** Options of `rcml account rotate-token`. */
export interface RotateTokenOptions {
  data: string;
  database?: string;
  /** Default: the oldest account, the one `rcml serve` serves when given none. */
  accountSid?: string;
  newSigningKey?: boolean;
}

function accountSid(value: string): string {
  if (!ACCOUNT_SID_PATTERN.test(value))
    throw new InvalidArgumentError('expected AC followed by 32 hex digits');
  return value;
}

/**
 * Opens the store directly (beside a running server too: nothing of its live calls is touched),
 * issues a new auth token and prints it once, with the signing key. The old token stops working
 * at the next request, on every node sharing the store.
 */
export async function rotateTokenCommand(options: RotateTokenOptions): Promise<CommandOutcome> {
  let store: Store;
  try {
    if (options.database !== undefined) {
      if (!/^postgres(ql)?:\/\//.test(options.database)) {
        return {
          stdout: '',
          stderr: 'rcml account rotate-token: --database must be a postgres:// URL\n',
          exitCode: 2,
        };
      }
      store = await openPostgresStore({ url: options.database, poolSize: 1 });
    } else {
      store = await openSqliteStore({ dir: options.data, closeInterrupted: false });
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { stdout: '', stderr: `rcml account rotate-token: ${why}\n`, exitCode: 2 };
  }
  try {
    const sid = options.accountSid ?? (await store.accounts.list())[0]?.sid;
    if (sid === undefined || (await store.accounts.get(sid)) === undefined) {
      const what = sid === undefined ? 'the store has no account' : `no account ${sid}`;
      return { stdout: '', stderr: `rcml account rotate-token: ${what}\n`, exitCode: 1 };
    }
    const rotated = await rotateAuthToken(store.accounts, sid, { newSigningKey: options.newSigningKey });
    const lines = [
      `account sid: ${sid}`,
      `auth token: ${rotated.authToken}`,
      `signing key: ${rotated.signingKey}${options.newSigningKey ? ' (new)' : ''}`,
    ];
    return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
  } finally {
    await store.close();
  }
}

/** Registers `rcml account rotate-token`. */
export function registerAccount(program: Command): void {
  const account = program.command('account').description("manage a store's accounts");
  account
    .command('rotate-token')
    .description(
      'issue a new auth token (the old one stops working at once) and print it with the signing key',
    )
    .option('--data <dir>', 'data directory of the SQLite store', './data')
    .addOption(
      new Option('--database <url>', 'the PostgreSQL store (postgres://...) instead of --data').env(
        'RCML_DATABASE_URL',
      ),
    )
    .addOption(
      new Option('--account-sid <sid>', 'the account (default: the oldest one)')
        .env('RCML_ACCOUNT_SID')
        .argParser(accountSid),
    )
    .option('--new-signing-key', 'also issue a new signing key (webhook signatures change)')
    .action(async (options: RotateTokenOptions) => {
      printOutcome(await rotateTokenCommand(options));
    });
}
