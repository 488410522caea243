import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples in docs/ import the package by name; tests run them against the sources.
  resolve: {
    alias: [
      { find: /^rcml-engine$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/support/global-services.ts'],
    pool: 'forks',
    // A worker keeps its loaded modules from one file to the next: importing the sources again
    // for each of 270 files was 40 % of the run. Tests leave no global state behind (timers are
    // restored, servers closed), which `npm run test:shuffled` checks in a random file order.
    isolate: false,
    // Many files wait on child processes (rcml serve, Chromium): two workers keep both cores busy.
    // A minute per test: starting a process takes seconds more on a loaded machine; a hang still fails.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
