/**
 * The console's built front end (`npm run build` writes it to dist/console): `index.html`, which
 * names its scripts and styles by content hash, and `assets/`. Read once into memory.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built files, by name under `assets/`. */
export interface ConsoleAssets {
  index: string;
  files: Map<string, { body: Uint8Array; type: string }>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where the build puts the front end: beside the compiled server code, or dist/ from the sources. */
export function defaultAssetsDir(): string | undefined {
  const candidates = [
    fileURLToPath(new URL('../../console/', import.meta.url)),
    fileURLToPath(new URL('../../../dist/console/', import.meta.url)),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/** Reads a built front end; undefined when `dir` holds none. */
export function loadAssets(dir: string | undefined): ConsoleAssets | undefined {
  if (!dir || !existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, { body: Uint8Array; type: string }>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const type = TYPES[extname(name)];
      if (type) files.set(name, { body: readFileSync(join(assetDir, name)), type });
    }
  }
  return { index: readFileSync(join(dir, 'index.html'), 'utf8'), files };
}
