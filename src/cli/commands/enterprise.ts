import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import type { CommandOutcome } from './outcome.js';
import { printOutcome } from './outcome.js';

/** Options of `rcml enterprise create`. */
export interface EnterpriseCreateOptions {
  url: string;
  accountSid?: string;
  authToken?: string;
  name: string;
  accountEmail?: string;
  autoAttendant: boolean;
  adminEmail?: string;
  adminPassword?: string;
  adminName?: string;
}

function baseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL');
  }
  return value.replace(/\/+$/, '');
}

async function post(
  url: string,
  auth: string,
  body: unknown,
): Promise<{ ok: true; data: Record<string, string> } | { ok: false; error: string }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, error: `cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const text = await res.text();
  let answer: { data?: Record<string, string>; errorCode?: string; message?: string } = {};
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON: reported below with the status.
  }
  if (res.status === 200 && answer.data) return { ok: true, data: answer.data };
  const why = answer.message ?? text.slice(0, 200);
  return {
    ok: false,
    error: `${url}: HTTP ${res.status}${answer.errorCode ? ` ${answer.errorCode}` : ''}: ${why}`,
  };
}

/**
 * Creates an enterprise on a running server (`POST /enterprises`) and, given `adminEmail`, its
 * first BG_ADMIN user (`POST /autoattendant/user`). 0 done, 1 the server refused, 2 usage.
 */
export async function enterpriseCreateCommand(options: EnterpriseCreateOptions): Promise<CommandOutcome> {
  if (!options.accountSid || !options.authToken) {
    return {
      stdout: '',
      stderr:
        'rcml enterprise create: give --account-sid and --auth-token (or RCML_ACCOUNT_SID / RCML_AUTH_TOKEN)\n',
      exitCode: 2,
    };
  }
  if ((options.adminEmail === undefined) !== (options.adminPassword === undefined)) {
    return {
      stdout: '',
      stderr: 'rcml enterprise create: give both --admin-email and --admin-password\n',
      exitCode: 2,
    };
  }
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const enterprise = await post(`${options.url}/enterprises`, auth, {
    name: options.name,
    accountEmail: options.accountEmail,
    autoAttendant: options.autoAttendant,
  });
  if (!enterprise.ok)
    return { stdout: '', stderr: `rcml enterprise create: ${enterprise.error}\n`, exitCode: 1 };
  const lines = [`enterprise ${enterprise.data.sid}: ${enterprise.data.name}`];
  if (options.adminEmail !== undefined) {
    const user = await post(`${options.url}/autoattendant/user`, auth, {
      name: options.adminName,
      emailId: options.adminEmail,
      password: options.adminPassword,
      role: 'BG_ADMIN',
      enterpriseSid: enterprise.data.sid,
    });
    if (!user.ok) {
      return {
        stdout: `${lines.join('\n')}\n`,
        stderr: `rcml enterprise create: ${user.error}\n`,
        exitCode: 1,
      };
    }
    lines.push(`user ${user.data.sid}: ${user.data.emailId} (BG_ADMIN)`);
  }
  return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
}

/** Registers `rcml enterprise create`. */
export function registerEnterprise(program: Command): void {
  const enterprise = program.command('enterprise').description('manage enterprises on a running rcml serve');
  enterprise
    .command('create')
    .description(
      'create an enterprise (with an Auto Attendant system) and optionally its first BG_ADMIN user',
    )
    .requiredOption('--name <name>', 'name of the enterprise')
    .addOption(
      new Option('--url <base_url>', '{base_url} of the server')
        .default('http://127.0.0.1:8080')
        .argParser(baseUrl),
    )
    .addOption(new Option('--account-sid <sid>', 'platform account').env('RCML_ACCOUNT_SID'))
    .addOption(new Option('--auth-token <token>', 'its auth token').env('RCML_AUTH_TOKEN'))
    .option('--account-email <email>', "e-mail of the account's administrator, shown as accountEmail")
    .option('--no-auto-attendant', 'create the enterprise without an Auto Attendant system')
    .option('--admin-email <email>', 'also create a BG_ADMIN user with this e-mail')
    .addOption(new Option('--admin-password <password>', 'its password').env('RCML_ADMIN_PASSWORD'))
    .option('--admin-name <name>', 'its full name')
    .action(async (options: EnterpriseCreateOptions) => {
      printOutcome(await enterpriseCreateCommand(options));
    });
}
