import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { serveDesignerProject } from '../../api/designer-application.js';
import { startEngineServer } from '../../api/engine-server.js';
import { DRAINING_CHECK } from '../../api/ops/drain.js';
import { ensureAccount } from '../../api/server.js';
import { redactUrl } from '../../engine/fetcher.js';
import type { CallRecord } from '../../engine/records.js';
import type { ClientDirectory } from '../../store/client-directory.js';
import { lockDataDirectory } from '../../store/sqlite/lock.js';
import { deferredTelephony } from '../../telephony/deferred-telephony.js';
import { type SipService, startSipService } from '../../telephony/sip-service.js';
import { whenOrphaned } from './parent-watch.js';
import { type FinalCallbacks, openBackends } from './serve-backends.js';
import { egressOptions, egressPolicy } from './serve-egress.js';
import { fetcherOptionsOf, serveFetchOptions } from './serve-fetch.js';
import { accountLimitsOf, serveLimitOptions } from './serve-limits.js';
import {
  createServeOps,
  drainOnSignals,
  drainSecondsOf,
  scheduleRetention,
  serveOpsOptions,
} from './serve-ops.js';
import { checkServeOptions, readProject, readTls, type ServeOptions, serveOptions } from './serve-options.js';
import { serveSipOptions, sipClientDirectory } from './serve-sip.js';
import { sipPeerServiceOptions, sipSourcesNote } from './serve-sip-peers.js';
import { openServiceStores, type ServiceStores } from './serve-stores.js';

/** Registers `rcml serve`: the platform REST API and its call engine, records in SQLite under --data. */
export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('serve the platform REST API and run calls (records in SQLite under --data, or PostgreSQL)');
  for (const option of serveOptions()) serve.addOption(option);
  for (const option of serveOpsOptions()) serve.addOption(option);
  for (const option of serveLimitOptions()) serve.addOption(option);
  for (const option of egressOptions()) serve.addOption(option);
  for (const option of serveFetchOptions()) serve.addOption(option);
  for (const option of serveSipOptions()) serve.addOption(option);
  serve.action(async (options: ServeOptions, command: Command) => {
    const parent = process.ppid;
    checkServeOptions(options, command);
    const routes = options.number ?? [];
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
    // Clients' applications are reached on the server's base URL, known once it listens.
    let baseUrl: string | undefined;
    try {
      ensured = await ensureAccount(store, { sid: options.accountSid, authToken: options.authToken });
      services = await openServiceStores(options.data, cluster?.store);
      clients = options.sip ? await sipClientDirectory(store, log, () => baseUrl) : undefined;
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
      // The Clients resource shows where each softphone is registered (the SIP service's bindings).
      registrationOf: (accountSid, login) => sip?.registrationOf(accountSid, login),
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
        baseUrl = server.baseUrl;
        await clients?.reload();
        const service = await startSipService({
          calls: server.engine,
          host: options.sip.host,
          port: options.sip.port,
          publicAddress: options.sipPublicAddress,
          rtpPorts: options.rtpPorts,
          rtpTimeouts: { activeSeconds: options.rtpTimeout, heldSeconds: options.rtpHoldTimeout },
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
          onRefused: (reason) => ops.metrics?.sipRefused(reason),
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
