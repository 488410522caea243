/**
 * The core flags of `rcml serve` (listening, clock, account, numbers, storage, cluster, TLS),
 * their argument checks, the checks between flags, and the files they name read.
 */
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, type Option } from 'commander';
import { envOption } from '../env-option.js';
import { type EgressOptions, yesNo } from './serve-egress.js';
import type { ServeFetchOptions } from './serve-fetch.js';
import type { ServeLimitOptions } from './serve-limits.js';
import type { ServeOpsOptions } from './serve-ops.js';
import type { ServeSipOptions } from './serve-sip.js';
import { sipPeerOptionsProblem } from './serve-sip-peers.js';

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
}

function absoluteUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL');
  }
  return value;
}

function seed(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative whole number');
  return Number(value);
}

function nodeTtl(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 100 || n > 3_600_000) {
    throw new InvalidArgumentError('expected whole milliseconds, 100-3600000');
  }
  return n;
}

/**
 * `--number +15550100=http://host/app` routes to a URL, `--number +15550100=AP...` to a Visual
 * Designer application of the service, a bare number to the `--project`.
 */
export interface NumberRoute {
  number: string;
  url?: string;
  application?: string;
}

const APPLICATION_SID = /^AP[0-9a-fA-F]{32}$/;

/** One or more routes separated by whitespace (`RCML_NUMBERS` holds several). */
function numberRoutes(value: string, previous: NumberRoute[] = []): NumberRoute[] {
  return value
    .trim()
    .split(/\s+/)
    .filter((v) => v !== '')
    .reduce((routes, v) => numberRoute(v, routes), previous);
}

function numberRoute(value: string, previous: NumberRoute[]): NumberRoute[] {
  const eq = value.indexOf('=');
  const number = eq < 0 ? value : value.slice(0, eq);
  if (!/^(\+?[0-9*#]+|client:\S+|sip:\S+@\S+)$/.test(number)) {
    throw new InvalidArgumentError(`expected a number, client:<name> or sip:<user>@<host>, got '${number}'`);
  }
  const to = eq < 0 ? undefined : value.slice(eq + 1);
  if (to !== undefined && APPLICATION_SID.test(to)) return [...previous, { number, application: to }];
  return [...previous, { number, url: to === undefined ? undefined : absoluteUrl(to) }];
}

/** Every flag of `rcml serve`, as commander hands them over. */
export interface ServeOptions
  extends ServeOpsOptions,
    ServeLimitOptions,
    EgressOptions,
    ServeFetchOptions,
    ServeSipOptions {
  port: number;
  host: string;
  data: string;
  clock: 'real' | 'virtual';
  seed?: number;
  baseUrl?: string;
  accountSid?: string;
  authToken?: string;
  number?: NumberRoute[];
  project?: string;
  database?: string;
  redis?: string;
  nodeId?: string;
  advertiseUrl?: string;
  nodeTtlMs?: number;
  tlsCert?: string;
  tlsKey?: string;
  sim?: boolean;
}

/**
 * The core flags, in the order `--help` lists them. Every option also reads an environment
 * variable (envOption: RCML_ + the long flag unless named), listed in docs/operations.md.
 */
export function serveOptions(): Option[] {
  return [
    envOption('--port <port>', 'port to listen on (0 picks a free one)').default(8080).argParser(port),
    envOption('--host <host>', 'address to listen on').default('127.0.0.1'),
    envOption(
      '--data <dir>',
      'data directory (SQLite databases and recordings; unused with --database)',
    ).default('./data'),
    envOption('--clock <clock>', 'clock of the call engine (virtual: moved by POST /sim/Advance)')
      .choices(['real', 'virtual'])
      .default('real'),
    envOption('--seed <n>', 'seed of call sids on the virtual clock').argParser(seed),
    envOption('--base-url <url>', '{base_url} of links (default http://host:port)').argParser(absoluteUrl),
    envOption('--account-sid <sid>', 'account to serve'),
    envOption('--auth-token <token>', 'its auth token'),
    envOption(
      '--number <number[=url]>',
      'route inbound calls to a number: =URL, =AP<sid> (a designer application), bare: the --project; repeatable',
      'RCML_NUMBERS',
    ).argParser(numberRoutes),
    envOption('--project <state.json>', 'serve a Visual Designer project as an application'),
    envOption(
      '--database <url>',
      'keep records in PostgreSQL (postgres://...) instead of --data',
      'RCML_DATABASE_URL',
    ),
    envOption(
      '--redis <url>',
      'share queues with the other nodes through Redis (redis://...)',
      'RCML_REDIS_URL',
    ),
    envOption('--node-id <name>', "this node's name in the cluster (default node1)"),
    envOption(
      '--advertise-url <url>',
      'URL the other nodes forward live-call requests to (default the listening URL)',
    ).argParser(absoluteUrl),
    envOption('--node-ttl-ms <ms>', 'a node silent this long is taken for dead (default 10000)').argParser(
      nodeTtl,
    ),
    envOption('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; needs --tls-key)'),
    envOption('--tls-key <file>', 'private key of --tls-cert (PEM)'),
    envOption(
      '--sim [yes|no]',
      'let /sim set parties and advance the clock, which every account shares (default: yes on the virtual clock only)',
    ).argParser(yesNo),
  ];
}

/**
 * Flags that need or exclude others. Usage errors go through command.error, which prints the
 * usage of `rcml serve` too.
 */
export function checkServeOptions(options: ServeOptions, command: Command): void {
  if (options.seed !== undefined && options.clock !== 'virtual') {
    command.error('error: --seed needs --clock virtual', { exitCode: 2 });
  }
  if (options.sip !== undefined && options.clock !== 'real') {
    command.error('error: --sip answers real calls in real time: it needs --clock real', { exitCode: 2 });
  }
  const sipPeers = sipPeerOptionsProblem(options);
  if (sipPeers) command.error(`error: ${sipPeers}`, { exitCode: 2 });
  const routes = options.number ?? [];
  if (routes.some((r) => r.url === undefined && r.application === undefined) && !options.project) {
    command.error('error: a --number without =url routes to the --project: give one', { exitCode: 2 });
  }
}

/** The `--project` file as JSON; a file that cannot be read or parsed is a usage error. */
export function readProject(file: string, command: Command): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return command.error(`error: --project ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      exitCode: 2,
    });
  }
}

/** `--tls-cert` and `--tls-key` read, both or neither; a file that cannot be read is a usage error. */
export function readTls(options: ServeOptions, command: Command): { cert: Buffer; key: Buffer } | undefined {
  if (options.tlsCert === undefined && options.tlsKey === undefined) return undefined;
  if (options.tlsCert === undefined || options.tlsKey === undefined) {
    return command.error('error: give both --tls-cert and --tls-key, or neither', { exitCode: 2 });
  }
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      return command.error(`error: ${flag} ${file}: ${err instanceof Error ? err.message : String(err)}`, {
        exitCode: 2,
      });
    }
  };
  return { cert: read('--tls-cert', options.tlsCert), key: read('--tls-key', options.tlsKey) };
}
