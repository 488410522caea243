import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `prepare` builds dist/ for a clone's `npm ci`, but not again when `npx rcml` in the clone makes
// npm install the clone into its npx cache. Without npm on the PATH, a run that tries to build fails.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const prepare = (command: string) =>
  spawnSync(process.execPath, ['scripts/prepare.mjs'], {
    cwd: root,
    env: { PATH: '', npm_command: command },
    encoding: 'utf8',
  });

describe('the prepare script', () => {
  it('keeps the built dist/ under npx', () => {
    expect(existsSync(resolve(root, 'dist/cli/main.js')), 'dist/ is built (npm ci builds it)').toBe(true);
    expect(prepare('exec').status).toBe(0);
  });

  it('builds under npm ci', () => {
    const run = prepare('ci');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ENOENT');
  });
});
