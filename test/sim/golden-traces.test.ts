import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { writeWav } from '../../src/engine/wav.js';
import { formatTrace, parseScenario, runScenario, type Scenario } from '../../src/sim/index.js';
import { checkCallFlow, varyFromSpec } from '../../src/testing/check.js';
import { propertiesFromSpec } from '../../src/testing/properties.js';

/**
 * Traces of the fixture scenarios, compared with goldens recorded from the simulated parties
 * before media went through the engine's CallLine and Telephony ports: the simulated
 * implementation must keep every trace byte-identical. `RCML_UPDATE_GOLDEN=1` rewrites them.
 */
const fixtures = new URL('../../fixtures/', import.meta.url);
const golden = new URL('./golden/', import.meta.url);
const update = process.env.RCML_UPDATE_GOLDEN === '1';

function matchGolden(name: string, text: string): void {
  const file = new URL(name, golden);
  if (update) writeFileSync(file, text);
  expect(existsSync(file), `${name} missing: record it with RCML_UPDATE_GOLDEN=1`).toBe(true);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const wav = writeWav(1.5);

/** The media scenario, with a real WAV file for its Play URL. */
function mediaScenario(): Scenario {
  const scenario = parseScenario(readFileSync(new URL('media.json', golden), 'utf8'));
  scenario.apps['http://media.test/tone.wav'] = () => ({ status: 200, contentType: 'audio/wav', body: wav });
  return scenario;
}

const scenarioFiles = readdirSync(new URL('scenarios/', fixtures)).filter((f) => f.endsWith('.json'));

describe('golden traces', () => {
  it.each(scenarioFiles)('rcml simulate fixtures/scenarios/%s', async (file) => {
    const scenario = parseScenario(readFileSync(new URL(`scenarios/${file}`, fixtures), 'utf8'));
    const trace = await runScenario(scenario);
    matchGolden(file.replace(/\.json$/, '.trace.golden'), `${JSON.stringify(trace, null, 1)}\n`);
    matchGolden(file.replace(/\.json$/, '.trace.txt'), formatTrace(trace));
  });

  it('rcml simulate of the media scenario (Say, Play, Pause, Gather, Record, Dial, Conference, Hold)', async () => {
    const trace = await runScenario(mediaScenario());
    matchGolden('media.trace.golden', `${JSON.stringify(trace, null, 1)}\n`);
  });

  it('every engine event and record of the media scenario', async () => {
    const scenario = mediaScenario();
    const lines: string[] = [];
    const engine = createEngine({
      seed: scenario.seed,
      onEvent: (e) => lines.push(JSON.stringify(e)),
      sink: {
        call: (r) => lines.push(`call ${JSON.stringify(r)}`),
        gather: (r) => lines.push(`gather ${JSON.stringify(r)}`),
        notification: (r) => lines.push(`notification ${JSON.stringify(r)}`),
        sessionDetail: (r) => lines.push(`sdr ${JSON.stringify(r)}`),
        recording: (r, bytes) =>
          lines.push(
            `recording ${JSON.stringify(r)} ${bytes.length} ${createHash('sha256').update(bytes).digest('hex')}`,
          ),
      },
    });
    for (const [url, app] of Object.entries(scenario.apps)) {
      engine.registerHandler(
        url,
        typeof app === 'string'
          ? () => ({ status: 200, contentType: 'text/xml', body: app })
          : typeof app === 'function'
            ? app
            : (req) => {
                const hit = app.find((v) =>
                  Object.entries(v.when ?? {}).every(([k, w]) => req.params[k] === w),
                );
                return { status: 200, contentType: 'text/xml', body: hit?.rcml ?? '' };
              },
      );
    }
    for (const [number, config] of Object.entries(scenario.numbers)) engine.setNumber(number, config);
    for (const [address, party] of Object.entries(scenario.parties)) engine.setParty(address, party);
    for (const call of scenario.calls)
      if ('from' in call) engine.scheduleCall({ at: call.at, from: call.from, to: call.to });
    await engine.runUntil(engine.now() + scenario.until * 1000);
    await engine.close();
    matchGolden('media.events.txt', `${lines.join('\n')}\n`);
  });

  it.each(readdirSync(new URL('check/', fixtures)).filter((f) => f.endsWith('.json')))(
    'rcml check fixtures/check/%s',
    async (file) => {
      const scenario = parseScenario(readFileSync(new URL(`check/${file}`, fixtures), 'utf8'));
      const spec = scenario.check;
      if (!spec) throw new Error(`${file} has no check section`);
      const timelines: string[] = [];
      const record = {
        name: 'records the run',
        check: (t: { trace: Parameters<typeof formatTrace>[0] }) => {
          timelines.push(formatTrace(t.trace));
          return [];
        },
      };
      const result = await checkCallFlow({
        scenario,
        vary: varyFromSpec(spec.vary, scenario),
        properties: [...propertiesFromSpec(spec.properties), record],
        runs: 15,
        seed: 2024,
        out: false,
      });
      matchGolden(file.replace(/\.json$/, '.check.txt'), `${result.report}\n${timelines.join('\n')}`);
    },
  );
});
