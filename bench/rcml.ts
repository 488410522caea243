/**
 * RCML parse+validate and build throughput, each beside its floor measured in the same run:
 * raw fast-xml-parser parsing and raw xmlbuilder2 building (DOM, and callback writer) of the same
 * documents.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { create, createCB } from 'xmlbuilder2';
import { buildRcml, parseRcml, type RcmlDocument } from '../src/rcml/index.js';
import { arbitraryRcmlDocument } from '../src/rcml/testing.js';

/** Documents per second of `fn` over `inputs`, best of a few rounds of ~300 ms. */
function throughput<T>(inputs: T[], fn: (input: T) => unknown): number {
  let best = 0;
  for (let round = 0; round < 5; round++) {
    let count = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < 300) {
      for (const input of inputs) fn(input);
      count += inputs.length;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (count * 1000) / elapsed);
  }
  return best;
}

function line(label: string, value: number, floor: number, floorLabel: string): void {
  const ratio = value / floor;
  console.log(
    `${label.padEnd(22)} ${Math.round(value).toLocaleString('en').padStart(10)} docs/s   ${floorLabel.padEnd(24)} ${Math.round(floor).toLocaleString('en').padStart(10)} docs/s   ratio ${ratio.toFixed(2)} (goal >= 0.50)`,
  );
}

/** Writes a document with the same xmlbuilder2 calls as buildRcml but no model walking. */
function rawBuild(tree: RawElement[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('Response');
  const add = (parent: ReturnType<typeof create>, el: RawElement) => {
    const child = parent.ele(el.name, el.attributes);
    if (el.text) child.txt(el.text);
    for (const c of el.children) add(child, c);
  };
  for (const el of tree) add(root, el);
  return root.end({ prettyPrint: true });
}

/** The same with xmlbuilder2's callback writer, which streams text but still makes a fragment per element. */
function rawBuildCB(tree: RawElement[]): string {
  let out = '';
  const writer = createCB({
    data: (chunk: string) => {
      out += chunk;
    },
    prettyPrint: true,
  });
  writer.dec({ version: '1.0', encoding: 'UTF-8' }).ele('Response');
  const add = (el: RawElement) => {
    writer.ele(el.name, el.attributes);
    if (el.text) writer.txt(el.text);
    for (const c of el.children) add(c);
    writer.up();
  };
  for (const el of tree) add(el);
  writer.end();
  return out;
}

interface RawElement {
  name: string;
  attributes: { [name: string]: string };
  text: string;
  children: RawElement[];
}

export async function run(): Promise<void> {
  const fixtures = new URL('../fixtures/rcml/', import.meta.url).pathname;
  const own = readdirSync(fixtures)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => readFileSync(join(fixtures, f), 'utf8'));
  const generated = fc.sample(arbitraryRcmlDocument({ maxVerbs: 10 }), { numRuns: 200, seed: 42 });
  const documents: RcmlDocument[] = [
    ...own.map((xml) => {
      const r = parseRcml(xml);
      if (!r.ok) throw new Error('fixture does not parse');
      return r.document;
    }),
    ...generated,
  ];
  const xmls = [...own, ...generated.map((d) => buildRcml(d))];
  const bytes = xmls.reduce((n, x) => n + x.length, 0);
  console.log(`${xmls.length} documents, ${Math.round(bytes / xmls.length)} characters on average`);

  const fxp = new XMLParser({ ignoreAttributes: false, preserveOrder: true, parseTagValue: false });
  const parsed = throughput(xmls, (x) => parseRcml(x));
  const raw = throughput(xmls, (x) => fxp.parse(x));
  line('parseRcml', parsed, raw, 'fast-xml-parser parse');

  const toRaw = (x: string): RawElement[] => {
    const r = fxp.parse(x) as Array<{ [k: string]: unknown }>;
    const convert = (node: { [k: string]: unknown }): RawElement | undefined => {
      const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
      if (!name) return undefined;
      const kids = node[name] as Array<{ [k: string]: unknown }>;
      const attrs = (node[':@'] as { [k: string]: string }) ?? {};
      const attributes = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k.replace(/^@_/, ''), v]));
      const text = kids
        .filter((k) => '#text' in k)
        .map((k) => String(k['#text']))
        .join('')
        .trim();
      return { name, attributes, text, children: kids.map(convert).filter((c): c is RawElement => !!c) };
    };
    const response = r.find((n) => 'Response' in n)!;
    return (response.Response as Array<{ [k: string]: unknown }>)
      .map(convert)
      .filter((c): c is RawElement => !!c);
  };
  const trees = xmls.map(toRaw);
  const built = throughput(documents, (d) => buildRcml(d));
  const rawBuilt = throughput(trees, rawBuild);
  line('buildRcml', built, rawBuilt, 'xmlbuilder2 build');
  line('buildRcml', built, throughput(trees, rawBuildCB), 'xmlbuilder2 createCB');
}
