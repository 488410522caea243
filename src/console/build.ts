/**
 * Builds the web console's front end with esbuild: `OUT/index.html` naming its script and style
 * by content hash, and `OUT/assets/*` (served with immutable caching). `npm run build` runs it
 * into dist/console; tests run it into a directory of their own.
 *
 *   node --import tsx src/console/build.ts dist/console
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** What a build wrote: the names under `assets/` of the page's script and style, and the sizes. */
export interface ConsoleBuild {
  script: string;
  style: string;
  bytes: Record<string, number>;
}

/** Builds the front end into `outDir` (emptied first). */
export async function buildConsole(outDir: string): Promise<ConsoleBuild> {
  const out = resolve(outDir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: [join(here, 'app', 'main.ts'), join(here, 'app', 'style.css')],
    outdir: join(out, 'assets'),
    bundle: true,
    // The graph renderer (and its layout library) loads only when a graph is shown.
    splitting: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const bytes: Record<string, number> = {};
  let script = '';
  let style = '';
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    const name = basename(file);
    bytes[name] = meta.bytes;
    if (meta.entryPoint?.endsWith('main.ts')) script = name;
    if (meta.entryPoint?.endsWith('style.css')) style = name;
  }
  const page = readFileSync(join(here, 'page.html'), 'utf8')
    .replace('%SCRIPT%', `assets/${script}`)
    .replace('%STYLE%', `assets/${style}`);
  writeFileSync(join(out, 'index.html'), page);
  return { script, style, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? 'dist/console';
  buildConsole(outDir).then(
    (built) => {
      const total = Object.values(built.bytes).reduce((a, b) => a + b, 0);
      process.stdout.write(`console: ${outDir} (${Object.keys(built.bytes).length} files, ${total} bytes)\n`);
    },
    (err) => {
      process.stderr.write(`console build failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
