/** Child process of the crash test: writes calls forever, printing each sid once committed. */
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { call, recording, wav } from './fixtures.js';

const store = await openSqliteStore({ dir: process.argv[2] });
let n = 0;
for (;;) {
  n++;
  const live = n % 2 === 0;
  await store.calls.put(
    call(n, live ? { status: 'in-progress', endTime: undefined, duration: undefined } : {}),
  );
  if (n % 10 === 0) await store.recordings.put(recording(n), wav(64));
  process.stdout.write(`${call(n).sid}\n`);
}
