import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { AccountChangeError, changeAccount, createAccount, statusOf } from '../../store/account-admin.js';
import { rotateAuthToken } from '../../store/credentials.js';
import type { Store } from '../../store/ports.js';
import { openPostgresStore } from '../../store/postgres/open.js';
import { ACCOUNT_SID_PATTERN } from '../../store/sid.js';
import { openSqliteStore } from '../../store/sqlite/open.js';
import type { AccountStatus } from '../../store/types.js';
import type { CommandOutcome } from './outcome.js';
import { printOutcome } from './outcome.js';

/** Options of `rcml account rotate-token`. */
export interface RotateTokenOptions extends StoreOptions {
  /** Default: the oldest account, the one `rcml serve` serves when given none. */
  accountSid?: string;
  newSigningKey?: boolean;
}

function accountSid(value: string): string {
  if (!ACCOUNT_SID_PATTERN.test(value))
    throw new InvalidArgumentError('expected AC followed by 32 hex digits');
  return value;
}

/** Where `rcml account` finds the store. */
export interface StoreOptions {
  data: string;
  database?: string;
}

/** Opens the store of `--data` or `--database` (beside a running server too), or the failure. */
async function openStore(verb: string, options: StoreOptions): Promise<{ store: Store } | CommandOutcome> {
  try {
    if (options.database !== undefined) {
      if (!/^postgres(ql)?:\/\//.test(options.database)) {
        return {
          stdout: '',
          stderr: `rcml account ${verb}: --database must be a postgres:// URL\n`,
          exitCode: 2,
        };
      }
      return { store: await openPostgresStore({ url: options.database, poolSize: 1 }) };
    }
    return { store: await openSqliteStore({ dir: options.data, closeInterrupted: false }) };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { stdout: '', stderr: `rcml account ${verb}: ${why}\n`, exitCode: 2 };
  }
}

/** Options of `rcml account create`. */
export interface CreateAccountOptions extends StoreOptions {
  friendlyName?: string;
  /** Makes it a sub-account of this account. */
  owner?: string;
}

/** Creates an account and prints its sid, auth token (the only time it is shown) and signing key. */
export async function createAccountCommand(options: CreateAccountOptions): Promise<CommandOutcome> {
  const opened = await openStore('create', options);
  if (!('store' in opened)) return opened;
  const { store } = opened;
  try {
    if (options.owner !== undefined && !(await store.accounts.get(options.owner))) {
      return { stdout: '', stderr: `rcml account create: no account ${options.owner}\n`, exitCode: 1 };
    }
    const { account, authToken } = await createAccount(store.accounts, {
      friendlyName: options.friendlyName ?? 'rcml account',
      ownerSid: options.owner,
      now: Date.now(),
    });
    const lines = [
      `auth token: ${authToken}`,
      `signing key: ${account.signingKey}`,
      `account sid: ${account.sid}`,
    ];
    return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
  } finally {
    await store.close();
  }
}

/** Lists the accounts, oldest first: sid, status, owner (`-` for a top-level one), name. */
export async function listAccountsCommand(options: StoreOptions): Promise<CommandOutcome> {
  const opened = await openStore('list', options);
  if (!('store' in opened)) return opened;
  const { store } = opened;
  try {
    const lines = (await store.accounts.list()).map((a) =>
      [a.sid, statusOf(a).padEnd(9), a.ownerSid ?? '-'.padEnd(34), a.friendlyName].join('  '),
    );
    return { stdout: lines.length ? `${lines.join('\n')}\n` : '', stderr: '', exitCode: 0 };
  } finally {
    await store.close();
  }
}

/**
 * Sets an account's status. The change reaches a running server at its next request (every
 * request reads the account); the CLI cannot end a running server's live calls, which
 * `POST Accounts/{sid}` with `Status=closed` does.
 */
export async function setAccountStatusCommand(
  options: StoreOptions & { status: AccountStatus; accountSid: string },
): Promise<CommandOutcome> {
  const verb = { active: 'activate', suspended: 'suspend', closed: 'close' }[options.status];
  const opened = await openStore(verb, options);
  if (!('store' in opened)) return opened;
  const { store } = opened;
  try {
    const { after } = await changeAccount(
      store.accounts,
      options.accountSid,
      { status: options.status },
      Date.now(),
    );
    return { stdout: `account ${after.sid}: ${statusOf(after)}\n`, stderr: '', exitCode: 0 };
  } catch (err) {
    if (err instanceof AccountChangeError)
      return { stdout: '', stderr: `rcml account ${verb}: ${err.message}\n`, exitCode: 1 };
    throw err;
  } finally {
    await store.close();
  }
}

/**
 * Opens the store directly (beside a running server too: nothing of its live calls is touched),
 * issues a new auth token and prints it once, with the signing key. The old token stops working
 * at the next request, on every node sharing the store.
 */
export async function rotateTokenCommand(options: RotateTokenOptions): Promise<CommandOutcome> {
  const opened = await openStore('rotate-token', options);
  if (!('store' in opened)) return opened;
  const { store } = opened;
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
  const storeOptions = (cmd: Command) =>
    cmd
      .option('--data <dir>', 'data directory of the SQLite store', './data')
      .addOption(
        new Option('--database <url>', 'the PostgreSQL store (postgres://...) instead of --data').env(
          'RCML_DATABASE_URL',
        ),
      );
  storeOptions(
    account
      .command('create')
      .description('create an account and print its sid, auth token (shown this once) and signing key'),
  )
    .option('--friendly-name <name>', 'its name', 'rcml account')
    .addOption(new Option('--owner <sid>', 'make it a sub-account of this account').argParser(accountSid))
    .action(async (options: CreateAccountOptions) => {
      printOutcome(await createAccountCommand(options));
    });
  storeOptions(account.command('list').description('list the accounts: sid, status, owner, name')).action(
    async (options: StoreOptions) => {
      printOutcome(await listAccountsCommand(options));
    },
  );
  for (const [verb, status, what] of [
    ['suspend', 'suspended', 'refuse the account (403, code 20005) until it is activated again'],
    ['activate', 'active', 'make a suspended account active again'],
    ['close', 'closed', 'close the account for good (its requests are refused from then on)'],
  ] as const) {
    storeOptions(account.command(`${verb} <accountSid>`).description(what)).action(
      async (sid: string, options: StoreOptions) => {
        printOutcome(await setAccountStatusCommand({ ...options, status, accountSid: accountSid(sid) }));
      },
    );
  }
}
