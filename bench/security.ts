/**
 * Hostile input against its floor, measured in the same run: parsing adversarial RCML documents
 * (time per byte at two sizes; linear parsing keeps it flat) beside an ordinary document of the
 * same size, and account regexes against hostile caller text beside a plain pattern. The
 * ordinary document's own time per byte grows with size too: that is the heap (its objects
 * outgrow the young generation; with `--max-semi-space-size=128` it stays flat), which dividing
 * by the floor's growth cancels.
 */
import { compileBounded, matchesWhole } from '../src/designer/regex.js';
import { parseRcml } from '../src/rcml/index.js';

const SMALL = 100_000;
const LARGE = 800_000;

/** Fastest of a few runs of `fn`, in ms. */
function best(fn: () => unknown, runs = 5): number {
  let fastest = Number.POSITIVE_INFINITY;
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let r = 0; r < runs; r++) {
    // Each run starts from a collected heap, so one run's garbage is not the next one's cost.
    gc?.();
    const start = performance.now();
    fn();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

/** Nanoseconds per byte to parse the document `build(bytes)`. */
function perByte(build: (bytes: number) => string, bytes: number): number {
  const doc = build(bytes);
  return (best(() => parseRcml(doc)) * 1e6) / doc.length;
}

const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));

const HOSTILE_DOCUMENTS: Array<[string, (bytes: number) => string]> = [
  [
    'attributes on one verb',
    (bytes) => {
      const names: string[] = [];
      for (let size = 0; size < bytes; size += names[names.length - 1].length + 1) {
        names.push(`a${names.length}="x"`);
      }
      return `<Response><Say ${names.join(' ')}>hi</Say></Response>`;
    },
  ],
  ['bare & in text', (bytes) => `<Response><Say>${fill('&', bytes)}</Say></Response>`],
  ['bare & in an attribute', (bytes) => `<Response><Say voice="${fill('&', bytes)}">hi</Say></Response>`],
  ['nested elements', (bytes) => `<Response>${fill('<a>', bytes / 2)}${fill('</a>', (bytes / 2 / 3) * 4)}`],
  [
    'near-miss markup',
    (bytes) => `<Response><Say>${fill(']]-?&#&am<!-- - --><?p ?>', bytes)}</Say></Response>`,
  ],
];

const ordinary = (bytes: number) =>
  `<Response>${fill('<Say voice="alice">Hello there</Say>', bytes)}</Response>`;

function parsing(): void {
  console.log(
    `RCML parse, ns per byte at ${SMALL.toLocaleString('en')} and ${LARGE.toLocaleString('en')} bytes`,
  );
  perByte(ordinary, SMALL); // warm up
  const floorSmall = perByte(ordinary, SMALL);
  const floorLarge = perByte(ordinary, LARGE);
  const floorGrowth = floorLarge / floorSmall;
  console.log(
    `${'ordinary <Say> document'.padEnd(26)} ${floorSmall.toFixed(1).padStart(8)} ${floorLarge.toFixed(1).padStart(8)}   growth ${floorGrowth.toFixed(2)} (the floor)`,
  );
  for (const [label, build] of HOSTILE_DOCUMENTS) {
    const small = perByte(build, SMALL);
    const large = perByte(build, LARGE);
    // Growth beside the ordinary document's: what the heap does to both is not the parser's.
    const growth = large / small / floorGrowth;
    console.log(
      `${label.padEnd(26)} ${small.toFixed(1).padStart(8)} ${large.toFixed(1).padStart(8)}   growth vs floor ${growth.toFixed(2)} (goal <= 2; quadratic ~${LARGE / SMALL})   per byte vs floor ${(large / floorLarge).toFixed(2)} (goal <= 10)`,
    );
  }
}

/** Microseconds per character to match `pattern` against `text` on the bounded engine. */
function matchTime(pattern: string, text: string): number {
  const compiled = compileBounded(pattern);
  if (!compiled.ok) throw new Error(compiled.problem);
  // Twenty matches a run: one takes well under a millisecond.
  const runs = 20;
  const ms = best(() => {
    for (let i = 0; i < runs; i++) matchesWhole(compiled.regex, text);
  });
  return (ms * 1000) / runs / text.length;
}

const HOSTILE_PATTERNS: Array<[string, (n: number) => string]> = [
  // Each text holds the pattern's last literal, failing just before it: no shortcut applies.
  ['(a+)+b', (n) => `${'a'.repeat(n)}!b`],
  ['(a|aa)+c', (n) => `${'a'.repeat(n)}!c`],
  ['(\\d+\\s?)+x', (n) => `${'1 '.repeat(n / 2)}!x`],
];

function patterns(): void {
  const sizes = [500, 4_000];
  console.log(`\ndesigner regexes (bounded engine), us per character at ${sizes.join(' and ')} characters`);
  for (const [pattern, text] of HOSTILE_PATTERNS) matchTime(pattern, text(sizes[1])); // warm up
  const floor = sizes.map((n) => matchTime('a*b', `${'a'.repeat(n)}b`));
  console.log(`${'a*b, a match (floor)'.padEnd(26)} ${floor.map((f) => f.toFixed(3).padStart(8)).join(' ')}`);
  for (const [pattern, text] of HOSTILE_PATTERNS) {
    const [small, large] = sizes.map((n) => matchTime(pattern, text(n)));
    console.log(
      `${pattern.padEnd(26)} ${small.toFixed(3).padStart(8)} ${large.toFixed(3).padStart(8)}   growth ${(large / small).toFixed(2)} (goal <= 2)   vs floor ${(large / floor[1]).toFixed(2)}`,
    );
  }
  // What a backtracking engine does with the first one: doubling with every character.
  const backtracking = [22, 24].map((n) => best(() => /^(?:(a+)+b)$/.test('a'.repeat(n)), 3));
  console.log(
    `JavaScript RegExp, (a+)+b at 22 and 24 characters: ${backtracking.map((ms) => `${ms.toFixed(1)} ms`).join(', ')} (x${(backtracking[1] / backtracking[0]).toFixed(1)} for 2 more)`,
  );
}

export async function run(): Promise<void> {
  parsing();
  patterns();
}
