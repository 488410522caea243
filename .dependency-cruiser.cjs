/**
 * Import rules of the source tree, checked by `npm run lint` (DESIGN.md, "Layout and dependency
 * direction"; docs/engine.md, "Engine layers"). Type-only imports count like any other.
 */

/** The engine's layers, bottom-up: each may import only the ones before it. */
const engine = {
  values:
    '^src/engine/(records|types|errors|notification-codes|sids|dates|params|status-callbacks|settings|wav|wav-check|mp4|media-file|handlers|fetcher|signature|create-call-schema|modify-call-schema|script-signal|redact-events|verb-details|queues/events|conference-peers)[.]ts$|^src/engine/(clock|fetch|ports)/',
  call: '^src/engine/(call-machine|runtime|call|call-slot|simulated-line|simulated-telephony)[.]ts$',
  services: '^src/engine/(conferences|conference-join|legs|bridge|media|documents|modify-call|run-until|call-setups|inbound-call|final-callback)[.]ts$',
  verbs: '^src/engine/verbs/|^src/engine/queues/(?!events[.]ts$)',
  interpreter: '^src/engine/(call-services|script-context|interpreter)[.]ts$',
  wiring: '^src/engine/(engine|engine-options|index)[.]ts$',
};
const order = ['values', 'call', 'services', 'verbs', 'interpreter', 'wiring'];

/** One rule per layer: nothing it imports comes from a layer above it. */
const engineLayerRules = order.slice(0, -1).map((layer, i) => ({
  name: `engine-${layer}-imports-only-lower-layers`,
  severity: 'error',
  comment: `src/engine layer "${layer}" may not import from the layers above it (${order.slice(i + 1).join(', ')}).`,
  from: { path: engine[layer] },
  to: { path: order.slice(i + 1).map((l) => engine[l]) },
}));

/**
 * SIP in RFC 3261's layers, bottom-up (docs/telephony.md, "SIP layers"): messages and the values
 * every layer shares -> transport -> transactions -> dialogs -> the user agent. Each may import
 * only the ones before it.
 */
const sip = {
  messages: '^src/telephony/sip/(message|address|digest|sdp|timers|responses|requests|rate-limit|source-key|warn-sampler|address-scope)[.]ts$',
  transport: '^src/telephony/sip/transport[.]ts$',
  transactions: '^src/telephony/sip/transactions/',
  dialogs: '^src/telephony/sip/(dialog|dialogs|in-dialog)[.]ts$',
  userAgent: '^src/telephony/sip/(uas-invite|uac-invite|invite-auth|admission|endpoint|registrar|client-invite|nonces|auth-failures)[.]ts$',
};
const sipOrder = ['messages', 'transport', 'transactions', 'dialogs', 'userAgent'];
const sipLayerRules = sipOrder.slice(0, -1).map((layer, i) => ({
  name: `sip-${layer}-imports-only-lower-layers`,
  severity: 'error',
  comment: `src/telephony/sip layer "${layer}" may not import from the layers above it (${sipOrder.slice(i + 1).join(', ')}).`,
  from: { path: sip[layer] },
  to: { path: sipOrder.slice(i + 1).map((l) => sip[l]) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles under src/, type-only imports included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'Every module under src/ is imported by, or imports, another one.',
      from: { orphan: true, path: '^src/', pathNot: '[.]d[.]ts$' },
      to: {},
    },
    {
      name: 'rcml-imports-no-other-layer',
      severity: 'error',
      comment: 'src/rcml is the language layer: it imports nothing else of the project.',
      from: { path: '^src/rcml/' },
      to: { path: '^src/', pathNot: '^src/rcml/' },
    },
    {
      name: 'designer-imports-only-rcml',
      severity: 'error',
      comment: 'src/designer builds on src/rcml alone.',
      from: { path: '^src/designer/' },
      to: { path: '^src/', pathNot: '^src/(designer|rcml)/' },
    },
    {
      name: 'engine-and-queue-stay-below-adapters',
      severity: 'error',
      comment:
        'src/engine and src/queue never import the adapters and tools built on them (api, sim, store, cli, cluster, testing, load, console) nor the package entry points.',
      from: { path: '^src/(engine|queue)/' },
      to: { path: '^src/((api|sim|store|cli|cluster|testing|load|console)/|(index|testing|client)[.]ts$)' },
    },
    {
      name: 'engine-imports-only-rcml-and-queue',
      severity: 'error',
      comment: 'Outside its own folder, src/engine imports src/rcml and src/queue only.',
      from: { path: '^src/engine/' },
      to: { path: '^src/', pathNot: '^src/(engine|rcml|queue)/' },
    },
    {
      name: 'queue-stays-below-engine',
      severity: 'error',
      comment: 'src/queue is used by the engine, never the other way round.',
      from: { path: '^src/queue/' },
      to: { path: '^src/(engine|designer)/' },
    },
    {
      name: 'cluster-never-api',
      severity: 'error',
      comment: 'src/cluster implements ports of queue and store; it never reaches into api.',
      from: { path: '^src/cluster/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'telephony-never-api-or-store',
      severity: 'error',
      comment:
        'src/telephony implements the engine\'s CallLine and Telephony ports over SIP and RTP; it never reaches into api, store or the tools built on top.',
      from: { path: '^src/telephony/' },
      to: { path: '^src/((api|store|cli|cluster|sim|testing|load|console)/|(index|testing|client)[.]ts$)' },
    },
    ...sipLayerRules,
    {
      name: 'sip-layers-cover-sip',
      severity: 'error',
      comment: 'Every module of src/telephony/sip belongs to one of its layers (add a new one to `sip`).',
      from: { path: '^src/telephony/sip/', pathNot: Object.values(sip) },
      to: {},
    },
    {
      name: 'sip-imports-only-engine-ports',
      severity: 'error',
      comment: 'src/telephony/sip is SIP alone: of the rest of the project it sees only the engine\'s ports.',
      from: { path: '^src/telephony/sip/' },
      to: { path: '^src/', pathNot: ['^src/telephony/sip/', '^src/engine/ports/'] },
    },
    {
      name: 'engine-never-telephony',
      severity: 'error',
      comment: 'The engine knows its ports, never the SIP implementation behind them.',
      from: { path: '^src/(engine|queue|rcml|designer)/' },
      to: { path: '^src/telephony/' },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'src/cli sits on top: no other module imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'client-imports-only-client',
      severity: 'error',
      comment:
        'rcml-engine/client (src/client.ts, src/client/) stands alone: nothing else of src/ (no engine, store or api), so none of their packages, enter its import graph.',
      from: { path: '^src/client([.]ts$|/)' },
      to: { path: '^src/', pathNot: '^src/client([.]ts$|/)' },
    },
    {
      name: 'client-imports-no-package',
      severity: 'error',
      comment:
        'rcml-engine/client runs on web-standard fetch alone: no npm package (hono, better-sqlite3, undici...) and no node: module, so it also bundles for a browser.',
      from: { path: '^src/client([.]ts$|/)' },
      to: { dependencyTypesNot: ['local'] },
    },
    {
      name: 'engine-file-in-a-layer',
      severity: 'error',
      comment:
        'Every file of src/engine belongs to one layer: add a new file to a layer in .dependency-cruiser.cjs (docs/engine.md, "Engine layers").',
      from: { path: '^src/engine/', pathNot: order.map((l) => engine[l]) },
      to: {},
    },
    ...engineLayerRules,
    {
      name: 'engine-verbs-never-see-the-call',
      severity: 'error',
      comment:
        'Verbs (and the queue stays they share) see the narrow VerbContext of verbs/types.ts, never the Call class or the runtime.',
      from: { path: engine.verbs },
      to: { path: engine.call },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
