/**
 * fast-check arbitraries of valid Visual Designer projects (current format), for property tests
 * of flows built on the designer. Every module target names an existing module; the
 * external-service step is left out so rendering needs no network.
 */
import fc from 'fast-check';

const textChars = fc.constantFrom(...'abc XYZ019 <>&"\'$_.,!?é'.split(''));
const text = fc.string({ unit: textChars, minLength: 1, maxLength: 20 });
const varName = fc.constantFrom('name', 'pin', 'core_From', 'sticky_lang', 'amount');
const phrase = fc.tuple(text, fc.option(varName, { nil: undefined })).map(([t, v]) => (v ? `${t} $${v}` : t));
const digits = fc.string({ unit: fc.constantFrom(...'0123456789*#'.split('')), minLength: 1, maxLength: 3 });

type Json = Record<string, unknown>;

function stepArb(modules: string[]): fc.Arbitrary<Json> {
  const next = fc.constantFrom(...modules);
  const say = phrase.map((p) => ({ kind: 'say', phrase: p }));
  const play = fc.oneof(
    text.map((f) => ({ kind: 'play', playType: 'local', local: { wavLocalFilename: `${f}.wav` } })),
    phrase.map((p) => ({
      kind: 'play',
      playType: 'remote',
      remote: { wavUrl: `http://m.example.com/${p}` },
    })),
  );
  const prompt = fc.oneof(say, play);
  const gather = fc.oneof(
    fc.record({
      kind: fc.constant('gather'),
      gatherType: fc.constant('menu'),
      method: fc.constantFrom('GET', 'POST'),
      finishOnKey: fc.constantFrom('', '#', '*'),
      steps: fc.array(prompt, { maxLength: 2 }),
      menu: fc.record({ mappings: fc.array(fc.record({ digits, next }), { maxLength: 3 }) }),
      invalidMessage: fc.option(say, { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant('gather'),
      gatherType: fc.constant('collectdigits'),
      steps: fc.array(prompt, { maxLength: 2 }),
      collectdigits: fc.record({
        collectVariable: fc.constantFrom('pin', 'account'),
        next,
        scope: fc.constantFrom('module', 'application'),
      }),
      validation: fc.constantFrom({ userPattern: '0-9' }, { regexPattern: '\\d{2,4}' }, undefined),
    }),
  );
  const dial = fc.record({
    kind: fc.constant('dial'),
    nextModule: fc.option(next, { nil: undefined }),
    timeout: fc.integer({ min: 1, max: 60 }),
    dialNouns: fc.array(
      fc.oneof(
        fc.record({
          dialType: fc.constant('number'),
          destination: fc.constant('+15551234'),
          beforeConnectModule: fc.option(next, { nil: undefined }),
        }),
        fc.record({ dialType: fc.constant('client'), destination: fc.constant('alice') }),
        fc.record({
          dialType: fc.constant('conference'),
          destination: text,
          waitModule: fc.option(next, { nil: undefined }),
        }),
        fc.record({ dialType: fc.constant('sipuri'), destination: fc.constant('sip:bob@example.com') }),
      ),
      { minLength: 1, maxLength: 2 },
    ),
  });
  const others = fc.oneof(
    fc.constant({ kind: 'hungup' }),
    fc.constantFrom('busy', 'rejected').map((reason) => ({ kind: 'reject', reason })),
    fc.integer({ min: 1, max: 10 }).map((length) => ({ kind: 'pause', length })),
    next.map((n) => ({ kind: 'redirect', next: n })),
    fc.record({
      kind: fc.constant('record'),
      next: fc.option(next, { nil: undefined }),
      maxLength: fc.integer({ min: 1, max: 100 }),
    }),
    fc.record({
      kind: fc.constant('sms'),
      text: phrase,
      to: fc.constant('$core_From'),
      next: fc.option(next, { nil: undefined }),
    }),
    phrase.map((message) => ({ kind: 'log', message })),
    fc.record({
      kind: fc.constant('control'),
      conditions: fc.constant([
        { name: 'C1', operator: 'equals', comparison: { operand1: '$pin', operand2: '1', type: 'text' } },
      ]),
      actions: next.map((target) => [{ name: 'A1', continueTo: { target } }]),
    }),
  );
  return fc.oneof(say, play, gather, dial, others);
}

/** Arbitrary valid project JSON (format 1.15) with 1 to `maxModules` modules. */
export function arbitraryProject(maxModules = 4): fc.Arbitrary<Json> {
  return fc.integer({ min: 1, max: maxModules }).chain((count) => {
    const modules = ['start', ...Array.from({ length: count - 1 }, (_, i) => `module${i + 1}`)];
    return fc
      .tuple(...modules.map(() => fc.array(stepArb(modules), { minLength: 1, maxLength: 4 })))
      .map((stepLists) => {
        let id = 0;
        const nodes = modules.map((name, i) => ({
          name,
          label: `Label ${i}`,
          kind: 'voice',
          steps: (stepLists[i] ?? []).map((s) => named(s, () => `step${++id}`)),
        }));
        return {
          header: { projectKind: 'voice', startNodeName: 'start', version: '1.15' },
          nodes,
          lastStepId: id,
          lastNodeId: modules.length - 1,
        };
      });
  });
}

/** Gives a step (and its nested prompts) names, labels and titles. */
function named(step: Json, nextName: () => string): Json {
  const out: Json = { ...step, name: nextName(), label: String(step.kind), title: String(step.kind) };
  if (Array.isArray(step.steps)) out.steps = step.steps.map((s: Json) => named(s, nextName));
  if (step.invalidMessage) out.invalidMessage = named(step.invalidMessage as Json, nextName);
  return out;
}
