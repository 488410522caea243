/**
 * Designer rendering: renders/s of a menu module (gather with 3 mappings and variables) and of
 * a collect + validation round trip, beside `buildRcml` of the same output document.
 */
import { compileProject } from '../src/designer/index.js';
import { buildRcml } from '../src/rcml/build.js';
import type { RcmlDocument } from '../src/rcml/model.js';

const say = (name: string, phrase: string) => ({ kind: 'say', name, phrase });
const project = {
  header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
  nodes: [
    {
      name: 'start',
      label: 'Menu',
      steps: [
        {
          kind: 'gather',
          name: 'step1',
          gatherType: 'menu',
          method: 'GET',
          numDigits: 1,
          steps: [say('step2', 'Hello $core_From, press 1 for $dept1, 2 for $dept2, 3 for $dept3')],
          menu: { mappings: [1, 2, 3].map((d) => ({ digits: String(d), next: 'collect' })) },
        },
        say('step3', 'Goodbye $core_From'),
      ],
    },
    {
      name: 'collect',
      label: 'Collect',
      steps: [
        {
          kind: 'gather',
          name: 'step4',
          gatherType: 'collectdigits',
          finishOnKey: '#',
          steps: [say('step5', 'Enter your account number')],
          collectdigits: { collectVariable: 'account', next: 'done', scope: 'application' },
          validation: { regexPattern: '\\d{4,8}' },
          invalidMessage: say('step6', 'That is not a valid account'),
        },
      ],
    },
    { name: 'done', label: 'Done', steps: [say('step7', 'Account $account confirmed')] },
  ],
};

async function rate(label: string, fn: () => Promise<unknown> | unknown, floor?: number): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn();
  const n = 50_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = n / seconds;
  const ratio = floor ? ` (${(perSecond / floor).toFixed(2)}x buildRcml of the same document)` : '';
  console.log(`${label.padEnd(44)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} /s${ratio}`);
  return perSecond;
}

/** Prints renders/s beside buildRcml/s of the same documents. */
export async function run(): Promise<void> {
  const app = compileProject(project, { parameters: { dept1: 'sales', dept2: 'support', dept3: 'billing' } });
  const params = { From: '+15551234', To: '+15550000', CallSid: 'CA1' };
  const menuDoc: RcmlDocument = (await app.render('start', params)).document;
  const roundTrip = async () => {
    await app.render('start.step1.handle', { ...params, Digits: '2' });
    await app.render('collect.step4.handle', { ...params, Digits: 'x' });
    return app.render('collect.step4.handle', { ...params, Digits: '123456' });
  };
  const collectDoc = (await app.render('collect.step4.handle', { ...params, Digits: 'x' })).document;

  const menuFloor = await rate('buildRcml(menu document)', () => buildRcml(menuDoc));
  const documents = await rate('render menu module (document)', () => app.render('start', params), menuFloor);
  console.log(
    `${'  goal >= 100,000 renders/s (document)'.padEnd(44)} ${documents >= 100_000 ? 'met' : 'NOT met'}`,
  );
  const withXml = await rate(
    'render menu module + XML',
    async () => (await app.render('start', params)).xml,
    menuFloor,
  );
  console.log(
    `${'  goal >= 50,000 renders/s (with XML)'.padEnd(44)} ${withXml >= 50_000 ? 'met' : 'NOT met'}`,
  );
  const collectFloor = await rate('buildRcml(invalid-collect document)', () => buildRcml(collectDoc));
  // One round trip = 3 renders (menu handle, invalid input, valid input).
  const trips = await rate('collect + validation round trip (3 renders)', roundTrip, collectFloor);
  console.log(
    `${'  = renders/s in round trips'.padEnd(44)} ${Math.round(trips * 3)
      .toLocaleString('en-US')
      .padStart(12)} /s`,
  );
}
