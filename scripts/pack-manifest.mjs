/**
 * `npm pack` and `npm publish` ship package.json without its `prepare` script: `prepare` builds
 * `dist/` when a clone runs `npm ci`, but in an installed package npm would flag it as an install
 * script to approve. `prepack` runs `strip` after the build, `postpack` runs `restore`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const SAVED = 'package.json.prepack';

function restore() {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
}

function strip() {
  restore(); // a pack that failed half-way left the stripped manifest behind
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  if (!manifest.scripts?.prepare) return;
  writeFileSync(SAVED, text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const step = process.argv[2];
if (step === 'strip') strip();
else if (step === 'restore') restore();
else {
  console.error('usage: pack-manifest strip|restore');
  process.exitCode = 2;
}
