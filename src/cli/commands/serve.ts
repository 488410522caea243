import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { serveDesignerProject } from '../../api/designer-application.js';
import { startEngineServer } from '../../api/engine-server.js';
import { DRAINING_CHECK } from '../../api/ops/drain.js';
import { ensureAccount } from '../../api/server.js';
import { type ClusterBackends, openClusterBackends } from '../../cluster/backends.js';
import { redactUrl } from '../../engine/fetcher.js';
import type { CallRecord } from '../../engine/records.js';
import type { ClientDirectory } from '../../store/client-directory.js';
import { createDatabaseIfAbsent } from '../../store/postgres/create-database.js';
import { lockDataDirectory } from '../../store/sqlite/lock.js';
import { openSqliteStore } from '../../store/sqlite/open.js';
import { deferredTelephony } from '../../telephony/deferred-telephony.js';
import { type SipService, startSipService } from '../../telephony/sip-service.js';
import { envOption } from '../env-option.js';
import { whenOrphaned } from './parent-watch.js';
import { type EgressOptions, egressOptions, egressPolicy, yesNo } from './serve-egress.js';
import { fetcherOptionsOf, type ServeFetchOptions, serveFetchOptions } from './serve-fetch.js';
import { accountLimitsOf, type ServeLimitOptions, serveLimitOptions } from './serve-limits.js';
import {
  createServeOps,
  drainOnSignals,
  drainSecondsOf,
  type ServeOps,
  type ServeOpsOptions,
  scheduleRetention,
  serveOpsOptions,
} from './serve-ops.js';
import { type ServeSipOptions, serveSipOptions, sipClientDirectory } from './serve-sip.js';
import { sipPeerOptionsProblem, sipPeerServiceOptions, sipSourcesNote } from './serve-sip-peers.js';
import { openServiceStores, type ServiceStores } from './serve-stores.js';

/**
 * Exit status of a node that learnt it was declared dead by the cluster (a survivor took its
 * calls over): EX_TEMPFAIL, for a supervisor to start it again (it then rejoins with a new epoch).
 */
export const FENCED_EXIT_CODE = 75;

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

/** The `--project` file as JSON; a file that cannot be read or parsed is a usage error. */
function readProject(file: string, command: Command): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return command.error(`error: --project ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      exitCode: 2,
    });
  }
}

/**
 * `--number +15550100=http://host/app` routes to a URL, `--number +15550100=AP...` to a Visual
 * Designer application of the service, a bare number to the `--project`.
 */
interface NumberRoute {
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

interface ServeOptions
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

/** `--tls-cert` and `--tls-key` read, both or neither; a file that cannot be read is a usage error. */
function readTls(options: ServeOptions, command: Command): { cert: Buffer; key: Buffer } | undefined {
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

function nodeTtl(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 100 || n > 3_600_000) {
    throw new InvalidArgumentError('expected whole milliseconds, 100-3600000');
  }
  return n;
}

/** Where the final status callbacks of the calls this node closes for a dead node go (set once it serves). */
interface FinalCallbacks {
  send(closed: CallRecord): void;
}

/** The store (and, in a cluster, the shared queues and liveness) a node runs on. */
async function openBackends(
  options: ServeOptions,
  command: Command,
  log: ServeOps['log'],
  finalCallbacks: FinalCallbacks,
) {
  if (options.database === undefined) {
    if (options.redis !== undefined || options.nodeId !== undefined) {
      command.error('error: --redis and --node-id need --database', { exitCode: 2 });
    }
    const store = await openSqliteStore({ dir: options.data });
    return { store, where: `data ${options.data}`, cluster: undefined };
  }
  if (!/^postgres(ql)?:\/\//.test(options.database)) {
    command.error('error: --database must be a postgres:// URL', { exitCode: 2 });
  }
  if (options.redis !== undefined && !/^rediss?:\/\//.test(options.redis)) {
    command.error('error: --redis must be a redis:// URL', { exitCode: 2 });
  }
  if (
    options.redis === undefined &&
    (options.advertiseUrl !== undefined || options.nodeTtlMs !== undefined)
  ) {
    command.error('error: --advertise-url and --node-ttl-ms need --redis', { exitCode: 2 });
  }
  const nodeId = options.nodeId ?? 'node1';
  // A first node on a server with only its default databases creates the one it is given.
  let created: string | undefined;
  try {
    created = await createDatabaseIfAbsent(options.database);
  } catch (err) {
    command.error(
      `error: cannot create the database of ${redactUrl(options.database)}: ${err instanceof Error ? err.message : String(err)}`,
      { exitCode: 2 },
    );
  }
  const cluster: ClusterBackends = await openClusterBackends({
    databaseUrl: options.database,
    redisUrl: options.redis,
    nodeId,
    // Several platforms can share one Redis, each under its own key prefix.
    redisPrefix: process.env.RCML_REDIS_PREFIX || undefined,
    nodeTtlMs: options.nodeTtlMs,
    onTakeover: (node, outcome) => {
      if (outcome.status === 'done') {
        log.warn({ node, calls: outcome.calls.length, members: outcome.members }, 'took over a dead node');
        // Their final status callbacks leave from here, once (this node closed them).
        for (const closed of outcome.closed) finalCallbacks.send(closed);
      } else if (outcome.status === 'failed') {
        log.error({ node, err: outcome.error }, 'taking over a dead node failed');
      }
    },
    onError: (err) => log.error({ err }, 'change notice between nodes failed'),
    // Its calls belong to the survivor now: nothing more may leave this process.
    onFenced: (why) => {
      log.error(
        { node: nodeId, why },
        'this node was declared dead by the cluster; exiting, restart it to rejoin',
      );
      process.exit(FENCED_EXIT_CODE);
    },
  });
  return {
    store: cluster.store,
    where: `node ${nodeId}, PostgreSQL${created ? ` (database ${created} created)` : ''}${cluster.queueStore ? ' + Redis' : ''}`,
    cluster,
  };
}

/** Registers `rcml serve`: the platform REST API and its call engine, records in SQLite under --data. */
export function registerServe(program: Command): void {
  // Every option also reads an environment variable (envOption: RCML_ + the long flag unless
  // named), listed in docs/operations.md.
  const serve = program
    .command('serve')
    .description('serve the platform REST API and run calls (records in SQLite under --data, or PostgreSQL)')
    .addOption(
      envOption('--port <port>', 'port to listen on (0 picks a free one)').default(8080).argParser(port),
    )
    .addOption(envOption('--host <host>', 'address to listen on').default('127.0.0.1'))
    .addOption(
      envOption(
        '--data <dir>',
        'data directory (SQLite databases and recordings; unused with --database)',
      ).default('./data'),
    )
    .addOption(
      envOption('--clock <clock>', 'clock of the call engine (virtual: moved by POST /sim/Advance)')
        .choices(['real', 'virtual'])
        .default('real'),
    )
    .addOption(envOption('--seed <n>', 'seed of call sids on the virtual clock').argParser(seed))
    .addOption(
      envOption('--base-url <url>', '{base_url} of links (default http://host:port)').argParser(absoluteUrl),
    )
    .addOption(envOption('--account-sid <sid>', 'account to serve'))
    .addOption(envOption('--auth-token <token>', 'its auth token'))
    .addOption(
      envOption(
        '--number <number[=url]>',
        'route inbound calls to a number: =URL, =AP<sid> (a designer application), bare: the --project; repeatable',
        'RCML_NUMBERS',
      ).argParser(numberRoutes),
    )
    .addOption(envOption('--project <state.json>', 'serve a Visual Designer project as an application'))
    .addOption(
      envOption(
        '--database <url>',
        'keep records in PostgreSQL (postgres://...) instead of --data',
        'RCML_DATABASE_URL',
      ),
    )
    .addOption(
      envOption(
        '--redis <url>',
        'share queues with the other nodes through Redis (redis://...)',
        'RCML_REDIS_URL',
      ),
    )
    .addOption(envOption('--node-id <name>', "this node's name in the cluster (default node1)"))
    .addOption(
      envOption(
        '--advertise-url <url>',
        'URL the other nodes forward live-call requests to (default the listening URL)',
      ).argParser(absoluteUrl),
    )
    .addOption(
      envOption('--node-ttl-ms <ms>', 'a node silent this long is taken for dead (default 10000)').argParser(
        nodeTtl,
      ),
    )
    .addOption(envOption('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; needs --tls-key)'))
    .addOption(envOption('--tls-key <file>', 'private key of --tls-cert (PEM)'))
    .addOption(
      envOption(
        '--sim [yes|no]',
        'let /sim set parties and advance the clock, which every account shares (default: yes on the virtual clock only)',
      ).argParser(yesNo),
    );
  for (const option of serveOpsOptions()) serve.addOption(option);
  for (const option of serveLimitOptions()) serve.addOption(option);
  for (const option of egressOptions()) serve.addOption(option);
  for (const option of serveFetchOptions()) serve.addOption(option);
  for (const option of serveSipOptions()) serve.addOption(option);
  serve.action(async (options: ServeOptions, command: Command) => {
    const parent = process.ppid;
    // Usage errors go through command.error, which prints the usage of `rcml serve` too.
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
    // Read the project before opening anything, so a bad file leaves nothing behind.
    const project = options.project ? readProject(options.project, command) : undefined;
    const tls = readTls(options, command);
    const { log, ops, limits } = createServeOps(options);
    const egress = egressPolicy(options);
    // One owner per data directory, before anything in it is opened: start-up recovery closes
    // the calls left live, which only the directory's owner may do. A second server exits 2
    // (see main) naming the directory and the holder's pid. On PostgreSQL the directory holds
    // nothing (each node closes the calls of its --node-id), so nodes need no directory each.
    const lock = options.database === undefined ? lockDataDirectory(options.data) : undefined;
    // Calls closed before the server runs wait for it (none in practice: a node judges others
    // only after a TTL of its own).
    const early: CallRecord[] = [];
    const finalCallbacks: FinalCallbacks = { send: (closed) => early.push(closed) };
    const { store, where, cluster } = await openBackends(options, command, log, finalCallbacks);
    for (const [name, check] of Object.entries(cluster?.checks ?? {})) ops.readiness.register(name, check);
    let ensured: Awaited<ReturnType<typeof ensureAccount>>;
    // Designer, Call Queuing and enterprise records: in PostgreSQL with the others when given.
    let services: ServiceStores;
    let clients: ClientDirectory | undefined;
    try {
      ensured = await ensureAccount(store, { sid: options.accountSid, authToken: options.authToken });
      services = await openServiceStores(options.data, cluster?.store);
      clients = options.sip ? await sipClientDirectory(store, log) : undefined;
    } catch (err) {
      await store.close();
      await cluster?.close();
      command.error(`error: ${err instanceof Error ? err.message : String(err)}`, { exitCode: 2 });
    }
    // With --sip, calls to sip: targets leave over SIP once the service runs (it starts after
    // the engine); until then, and for other targets, the simulated parties answer as before.
    const late = options.sip ? deferredTelephony() : undefined;
    const server = await startEngineServer({
      // With --sip, the API writes clients through the registrar's directory (it reloads).
      store: clients ? { ...store, clients: clients.repository } : store,
      host: options.host,
      port: options.port,
      baseUrl: options.baseUrl,
      tls,
      clock: options.clock,
      seed: options.seed,
      // Parties and the clock are every account's: on a real clock /sim leaves them alone.
      sharedSimulation: options.sim ?? options.clock === 'virtual',
      accountSid: ensured.account.sid,
      callQueueStore: services.callQueue,
      designer: services.designer,
      enterprise: { store: services.enterprise },
      engine: {
        ...(cluster
          ? {
              queues: { store: cluster.queueStore, peers: cluster.queuePeers },
              // A room name of an account is one room across the nodes (with Redis).
              conferences: { peers: cluster.queuePeers },
              instanceId: options.nodeId ?? 'node1',
            }
          : {}),
        http: { egress: egress.policy, ...fetcherOptionsOf(options), gate: cluster?.gate },
        telephony: late?.factory,
      },
      onError: (err) => log.error({ err }, 'unexpected error'),
      ops,
      limits,
      accountLimits: accountLimitsOf(options),
      callOwners: cluster?.queueStore ? cluster : undefined,
      changes: cluster?.changes,
      // Each node's console shows the calls of every node.
      console: cluster?.consoleRelay ? { relay: cluster.consoleRelay } : undefined,
    });
    // Retention runs between requests, a batch at a time; it stops before the stores close.
    const retention =
      options.retainDays === undefined ? undefined : scheduleRetention(store, options.retainDays, log);
    let sip: SipService | undefined;
    const close = async (closeOptions: { graceMs?: number } = {}) => {
      try {
        await retention?.stop();
        // The engine ends its calls first (BYE through the SIP service), then SIP stops.
        await server.close(closeOptions);
        await sip?.close();
      } finally {
        clients?.close();
        await cluster?.close();
        lock?.release();
      }
    };
    finalCallbacks.send = (closed) => {
      server.engine
        .sendFinalCallback(closed)
        .catch((err: unknown) => log.error({ err }, 'final status callback failed'));
    };
    for (const closed of early.splice(0)) finalCallbacks.send(closed);
    // Redis restarted empty: the calls waiting in queues here wait there again.
    cluster?.onRedisLost(() => {
      server.engine.restoreQueues().then(
        (calls) =>
          log.warn(
            { calls },
            'Redis lost its data: rejoined the cluster and put waiting calls back in their queues',
          ),
        (err: unknown) => log.error({ err }, 'putting waiting calls back in their queues failed'),
      );
    });
    // Other nodes forward the requests that need this node's live calls here.
    await cluster?.advertise(options.advertiseUrl ?? server.url);
    const lines = [`rcml serve: listening on ${server.url} (${where}, clock ${options.clock})`];
    lines.push(egress.line);
    try {
      let controllerUrl: string | undefined;
      if (project !== undefined && options.project) {
        const served = await serveDesignerProject(server.engine, store, {
          accountSid: ensured.account.sid,
          baseUrl: server.baseUrl,
          project,
          key: resolve(options.project),
          servedProjects: server.servedProjects,
        });
        controllerUrl = served.controllerUrl;
        lines.push(`application ${served.application.sid}: ${controllerUrl}`);
      }
      for (const route of routes) {
        const voiceUrl = route.application
          ? `${server.baseUrl.replace(/\/+$/, '')}/visual-designer/services/apps/${route.application}/controller`
          : (route.url ?? (controllerUrl as string));
        // The served account's number: another account's /sim cannot re-route it.
        server.engine.setNumber(route.number, { voiceUrl, accountSid: ensured.account.sid });
        lines.push(`number ${route.number} -> ${redactUrl(voiceUrl)}`);
      }
      if (options.sip) {
        const service = await startSipService({
          calls: server.engine,
          host: options.sip.host,
          port: options.sip.port,
          publicAddress: options.sipPublicAddress,
          rtpPorts: options.rtpPorts,
          ttsCacheDir: options.database === undefined ? join(options.data, 'tts-cache') : undefined,
          // No new calls while draining, nor past --max-live-calls live calls on this node.
          admit: () =>
            ops.readiness.names().includes(DRAINING_CHECK) ||
            (options.maxLiveCalls > 0 && server.engine.liveCount >= options.maxLiveCalls)
              ? 503
              : undefined,
          // Outgoing INVITEs obey the same egress policy as webhooks.
          egress: egress.policy,
          ...sipPeerServiceOptions(options),
          clients,
          onWarning: (message, detail) => log.warn(detail, message),
        });
        sip = service;
        late?.use((simulated) => service.telephony(simulated));
        lines.push(
          `sip: listening on udp+tcp ${service.host}:${service.port}, rtp ${options.rtpPorts.min}-${options.rtpPorts.max}, public address ${service.publicAddress}${sipSourcesNote(options)}`,
        );
      }
    } catch (err) {
      await close();
      throw err;
    }
    if (store.interruptedCalls.length > 0) {
      lines.push(`closed ${store.interruptedCalls.length} call(s) left live by the previous run`);
    }
    // Secrets are shown once, when the account is created: the store keeps only the token's hash.
    if (ensured.authToken !== undefined) lines.push(`auth token: ${ensured.authToken}`);
    if (ensured.created) {
      lines.push(
        `signing key: ${ensured.account.signingKey} (signs webhooks' X-Twilio-Signature: validate with it, not the auth token)`,
      );
    }
    // Last, in one write, so a reader that sees the sid has everything.
    lines.push(`account sid: ${ensured.account.sid}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    log.info({ url: server.url, store: where, clock: options.clock }, 'listening');
    const drainSeconds = drainSecondsOf(options);
    const stop = drainOnSignals({ engine: server.engine, drain: server.drain, close }, drainSeconds, log);
    // Under npm (npx rcml serve, npm start) a signal to npm may stop only the shell between them.
    if (process.env.npm_command !== undefined) {
      whenOrphaned(() => stop('SIGTERM', 'npm, which started the server, exited'), { parent });
    }
  });
}
