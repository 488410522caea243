/**
 * `prepare`: builds dist/ when a clone runs `npm ci` (or `npm install`). `npx rcml ...` inside
 * the clone makes npm install the clone into its npx cache, which runs `prepare` again: that
 * run keeps the dist/ already built instead of rebuilding it in silence for half a minute
 * (`npm run build` rebuilds after a change).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.npm_command === 'exec' && existsSync('dist/cli/main.js')) process.exit(0);
execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
