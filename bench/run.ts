/**
 * `npm run bench`: runs every benchmark suite in turn. Each suite prints its figure beside a
 * floor measured in the same run, as a ratio.
 */
const suites: Array<{ name: string; load: () => Promise<{ run: () => Promise<void> }> }> = [
  { name: 'api', load: () => import('./api.js') },
  { name: 'postgres', load: () => import('./postgres.js') },
  { name: 'queue', load: () => import('./queue.js') },
  { name: 'cluster', load: () => import('./cluster.js') },
  { name: 'rcml', load: () => import('./rcml.js') },
  { name: 'designer', load: () => import('./designer.js') },
  { name: 'designer-service', load: () => import('./designer-service.js') },
  { name: 'engine', load: () => import('./engine.js') },
  { name: 'callqueue', load: () => import('./callqueue.js') },
  { name: 'load', load: () => import('./load.js') },
  { name: 'serve', load: () => import('./serve.js') },
  { name: 'call-writes', load: () => import('./call-writes.js') },
  { name: 'security', load: () => import('./security.js') },
  { name: 'sip', load: () => import('./sip.js') },
  { name: 'sip-security', load: () => import('./sip-security.js') },
];

for (const suite of suites) {
  const only = process.argv[2];
  if (only && only !== suite.name) continue;
  console.log(`\n## ${suite.name}`);
  const mod = await suite.load();
  await mod.run();
}
