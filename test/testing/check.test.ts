import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HandlerRequest } from '../../src/engine/index.js';
import { parseScenario, runScenario } from '../../src/sim/index.js';
import {
  arbitraryArrivals,
  arbitraryCaller,
  assertCallFlow,
  checkCallFlow,
  everyCallEnds,
  FlowAssertionError,
  propertiesFromSpec,
  property,
  reachesOneOf,
  varyFromSpec,
  violationsOf,
} from '../../src/testing/index.js';
import { fixture } from './flows.js';

const deep = Boolean(process.env.RCML_DEEP);
const dir = mkdtempSync(join(tmpdir(), 'rcml-check-'));
const URLS = ['http://ivr.example/sales', 'http://ivr.example/support', 'http://ivr.example/goodbye'];

function fromFile(name: string) {
  const scenario = fixture(name);
  const spec = parseScenario(JSON.stringify(scenario)).check!;
  return {
    scenario,
    vary: varyFromSpec(spec.vary, scenario),
    properties: propertiesFromSpec(spec.properties),
  };
}

describe('checkCallFlow', () => {
  it('finds the looping menu, shrinks it to one caller pressing one key, and writes a replayable file', async () => {
    const out = join(dir, 'loop.json');
    const result = await checkCallFlow({ ...fromFile('ivr-loop'), runs: 200, seed: 1, out });
    expect(result.ok).toBe(false);
    expect(result.seed).toBe(1);
    const cx = result.counterexample!;
    // Minimal: no hang-up, a single press, as early as the menu hears it.
    expect(cx.scenario.parties!['+15551111']).toEqual({ digits: [{ at: 1.7, keys: '0' }] });
    expect(cx.file).toBe(out);
    expect(result.report).toContain(`Replay: rcml simulate ${out}`);
    expect(result.report).toContain('(seed 1, shrunk');
    expect(result.report).toMatch(/1\.700 {2}call1 {2}party presses "0"/);
    // The file replays: the same failure on `rcml simulate`'s runner, and the check section kept.
    const replay = parseScenario(readFileSync(out, 'utf8'));
    expect(replay.check?.properties).toMatchObject({ everyCallEnds: true, reachesOneOf: URLS });
    const trace = await runScenario(replay);
    expect(trace).toEqual(cx.trace);
    expect(violationsOf(trace, propertiesFromSpec(replay.check!.properties)).length).toBeGreaterThan(0);
  });

  it('is deterministic for a seed', async () => {
    const a = await checkCallFlow({ ...fromFile('ivr-loop'), runs: 50, seed: 9, out: false });
    const b = await checkCallFlow({ ...fromFile('ivr-loop'), runs: 50, seed: 9, out: false });
    expect(a.report).toBe(b.report);
    expect(a.counterexample?.scenario).toEqual(b.counterexample?.scenario);
  });

  it('holds on the fixed menu', async () => {
    const result = await checkCallFlow({
      ...fromFile('ivr-fixed'),
      runs: deep ? 2000 : 60,
      seed: 2,
      out: false,
    });
    expect(result.report).toBe(
      `checkCallFlow: every call ends; every call reaches one of ${URLS.join(', ')}; no notification of level error: held in ${deep ? 2000 : 60} runs (seed 2)\n`,
    );
    expect(result.ok).toBe(true);
  });

  it('assertCallFlow throws a FlowAssertionError carrying the report', async () => {
    const failing = assertCallFlow({ ...fromFile('ivr-loop'), runs: 100, seed: 1, out: false });
    await expect(failing).rejects.toBeInstanceOf(FlowAssertionError);
    await expect(failing).rejects.toThrow(/"every call ends"[\s\S]*Timeline of call1/);
  });

  it('takes in-process handler functions and records their answers in the replay file', async () => {
    // A dynamic app, as a user's server would answer: the menu counts attempts in a closure.
    let served = 0;
    const app = (req: HandlerRequest) => {
      served++;
      const digits = req.params.Digits;
      const body =
        digits === undefined
          ? '<Response><Gather numDigits="1" action="/voice"><Say>Press 1</Say></Gather><Hangup/></Response>'
          : digits === '1'
            ? '<Response><Redirect>/done</Redirect></Response>'
            : // The seeded bug: a Gather without action discards the caller's second choice.
              '<Response><Gather numDigits="1"><Say>Try again</Say></Gather><Hangup/></Response>';
      return { status: 200, contentType: 'text/xml', body };
    };
    const out = join(dir, 'fn.json');
    const result = await checkCallFlow({
      scenario: {
        until: 120,
        apps: { 'http://app.test/voice': app, 'http://app.test/done': '<Response><Say>Bye</Say></Response>' },
        numbers: { '+15550100': { voiceUrl: 'http://app.test/voice' } },
        calls: [{ at: 0, from: '+15551111', to: '+15550100' }],
      },
      vary: {
        parties: { '+15551111': arbitraryCaller({ keys: { alphabet: '12', maxPresses: 2, within: 10 } }) },
      },
      properties: [
        property('whoever presses 1 reaches /done', (flow) =>
          flow.topCalls
            .filter((c) => c.inputs.some((i) => i.value.includes('1')))
            .every((c) => flow.reached(c.sid, 'http://app.test/done')),
        ),
      ],
      runs: 100,
      seed: 4,
      out,
    });
    expect(served).toBeGreaterThan(0);
    expect(result.ok).toBe(false);
    expect(result.counterexample!.scenario.parties!['+15551111']!.digits!.map((d) => d.keys)).toEqual([
      '2',
      '1',
    ]);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.apps['http://app.test/voice']).toEqual(
      expect.arrayContaining([expect.objectContaining({ when: expect.objectContaining({ Digits: '2' }) })]),
    );
    // Custom properties cannot be written: the file has no check section, and replays the run.
    expect(file.check).toBeUndefined();
    expect(await runScenario(parseScenario(JSON.stringify(file)))).toEqual(result.counterexample!.trace);
  });

  it('varies Poisson arrivals of callers, each with a behaviour', async () => {
    const arrivals = arbitraryArrivals({
      to: '+15550100',
      rate: 0.2,
      within: 60,
      max: 8,
      party: { keys: { alphabet: '12', maxPresses: 1, within: 5 }, hangup: { within: 30 } },
    });
    let most = 0;
    const result = await checkCallFlow({
      scenario: { ...fixture('ivr-fixed'), calls: [] },
      vary: { arrivals: [arrivals] },
      properties: [
        everyCallEnds(),
        reachesOneOf(URLS),
        property('count', (flow) => {
          most = Math.max(most, flow.topCalls.length);
          return true;
        }),
      ],
      runs: 40,
      seed: 5,
      out: false,
    });
    expect(result.ok).toBe(true);
    expect(most).toBeGreaterThan(3);
  });

  it('rejects an empty property list', async () => {
    await expect(checkCallFlow({ scenario: fixture('ivr-fixed'), properties: [] })).rejects.toThrow(
      'checkCallFlow: properties: name at least one',
    );
  });

  it('caller arbitraries give valid, time-ordered party behaviours', () => {
    const arb = arbitraryCaller({
      keys: { alphabet: '19#', maxPresses: 3, within: 10, finishOnKey: '#' },
      speech: { phrases: ['sales', 'support'], max: 2, within: 8 },
      hangup: { within: 20 },
      outcomes: ['answer', 'busy'],
      answerAfter: { max: 4 },
    });
    fc.assert(
      fc.property(arb, (p) => {
        const at = (p.digits ?? []).map((d) => d.at);
        expect(at).toEqual([...at].sort((a, b) => a - b));
        expect(at.every((t) => t >= 0 && t <= 10)).toBe(true);
        expect((p.digits ?? []).every((d) => /^[19#]+$/.test(d.keys))).toBe(true);
        expect((p.speech ?? []).every((s) => s.text === 'sales' || s.text === 'support')).toBe(true);
        expect(p.hangupAfter === undefined || p.hangupAfter <= 20).toBe(true);
        expect([undefined, 'busy']).toContain(p.outcome);
        expect(p.answerAfter === undefined || p.answerAfter <= 4).toBe(true);
      }),
      { numRuns: deep ? 5000 : 200 },
    );
  });

  it('Poisson arrivals: inside the window, at most max, about rate x window on average', () => {
    const samples = fc.sample(arbitraryArrivals({ to: '+1', rate: 0.5, within: 20, max: 100 }), {
      numRuns: 400,
      seed: 11,
    });
    for (const s of samples) {
      expect(s.calls.every((c) => c.at <= 20)).toBe(true);
      expect(new Set(s.calls.map((c) => c.from)).size).toBe(s.calls.length);
    }
    const mean = samples.reduce((n, s) => n + s.calls.length, 0) / samples.length;
    expect(mean).toBeGreaterThan(8);
    expect(mean).toBeLessThan(12);
  });
});
