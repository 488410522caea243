import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchLock } from '../support/offline-lock.js';

// The package as a user gets it: packed as `npm pack` packs it (prepack's manifest step, the
// `files` list), installed from the tarball into a scratch ES module project and a scratch
// CommonJS one (offline, from the npm cache `npm ci` filled), type-checked with
// `skipLibCheck: false`, and run through its three entries and its `rcml` command. It packs the
// `dist/` the build left (`npm ci` builds it), so it costs an install and one `tsc`, not a build.

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'rcml-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ESM_APP = `import { createApp, createMemoryStore, parseRcml } from 'rcml-engine';
import { createClient, RcmlApiError } from 'rcml-engine/client';
import { arbitraryCaller, expectFlow, runFlow } from 'rcml-engine/testing';

const parsed = parseRcml('<Response><Say>Hi</Say></Response>');
const flow = await runFlow('node_modules/rcml-engine/fixtures/scenarios/ivr.json');
expectFlow(flow).call(0).toEndWith('completed');
const app = createApp({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1:8080' });
const client = createClient({
  accountSid: 'AC00000000000000000000000000000000',
  authToken: 'not-a-token',
  baseUrl: 'http://127.0.0.1:8080',
  fetch: async (input, init) => app.fetch(new Request(input, init)),
});
let refused: unknown;
try {
  await client.calls.get('CA00000000000000000000000000000000');
} catch (err) {
  refused = err;
}
console.log(JSON.stringify({
  parsed: parsed.ok,
  caller: typeof arbitraryCaller,
  refused: refused instanceof RcmlApiError ? refused.status : String(refused),
}));
`;

const CJS_APP = `import { parseRcml, VoiceResponse } from 'rcml-engine';
import { createClient } from 'rcml-engine/client';
import { formatTrace } from 'rcml-engine/testing';

const r = new VoiceResponse();
r.say('Hi');
const client = createClient({ accountSid: 'AC1', authToken: 't', baseUrl: 'http://127.0.0.1:8080' });
console.log(JSON.stringify({
  parsed: parseRcml(r.toXml()).ok,
  client: typeof client.calls.list,
  format: typeof formatTrace,
  commonjs: typeof require === 'function' && typeof module === 'object',
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    types: ['node'],
  },
  include: ['esm-app/main.ts', 'cjs-app/main.ts'],
};

async function pack(): Promise<{ tarball: string; files: string[]; manifest: Record<string, unknown> }> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    files: string[];
    scripts: Record<string, string>;
  };
  expect(existsSync(join(root, 'dist/index.js')), 'dist/ is built (npm ci builds it)').toBe(true);
  // prepack builds then strips; here the build is the one npm ci made, in a copy of the package.
  expect(manifest.scripts.prepack).toMatch(/^npm run build && node scripts\/pack-manifest\.mjs strip$/);
  expect(manifest.scripts.postpack).toBe('node scripts/pack-manifest.mjs restore');
  const stage = join(work, 'stage');
  for (const entry of [
    'package.json',
    'README.md',
    'LICENSE',
    'scripts/pack-manifest.mjs',
    ...manifest.files,
  ]) {
    cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  await run(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: stage });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: stage,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const shipped = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { tarball: join(work, packed.filename), files: packed.files.map((f) => f.path), manifest: shipped };
}

describe('the packed package, installed as a dependency', () => {
  let packed: Awaited<ReturnType<typeof pack>>;

  it('ships a license, the quick start fixtures, no source maps and no prepare script', async () => {
    packed = await pack();
    expect(packed.files).toContain('LICENSE');
    expect(packed.files).toContain('fixtures/scenarios/ivr.json');
    expect(packed.files).toContain('dist/cli/main.js');
    expect(packed.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed.files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    expect((packed.manifest.scripts as Record<string, string>).prepare).toBeUndefined();
  });

  it('installs offline and type-checks with skipLibCheck false in an ES module and a CommonJS project', async () => {
    expect(packed, 'packed by the test above').toBeDefined();
    const project = join(work, 'project');
    mkdirSync(join(project, 'esm-app'), { recursive: true });
    mkdirSync(join(project, 'cjs-app'), { recursive: true });
    const lock = scratchLock(root, packed.tarball, ['fast-check', '@types/node']);
    writeFileSync(join(project, 'package-lock.json'), lock);
    const top = (JSON.parse(lock) as { packages: Record<string, object> }).packages[''];
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...top, private: true }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(project, 'esm-app/package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(project, 'esm-app/main.ts'), ESM_APP);
    writeFileSync(join(project, 'cjs-app/package.json'), JSON.stringify({ name: 'cjs-app', private: true }));
    writeFileSync(join(project, 'cjs-app/main.ts'), CJS_APP);

    const install = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project }).catch(
      (err: { stderr?: string }) => {
        throw new Error(`npm ci --offline failed (is the npm cache filled by npm ci?):\n${err.stderr}`);
      },
    );
    expect(install.stderr).not.toMatch(/install-scripts|prepare/);

    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', project]).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed in the scratch projects:\n${err.stdout}`);
    });
    expect(checked.stdout).toBe('');

    const esm = await run(process.execPath, ['esm-app/main.js'], { cwd: project });
    expect(JSON.parse(esm.stdout)).toEqual({ parsed: true, caller: 'function', refused: 401 });
    const cjs = await run(process.execPath, ['cjs-app/main.js'], { cwd: project });
    expect(JSON.parse(cjs.stdout)).toEqual({
      parsed: true,
      client: 'function',
      format: 'function',
      commonjs: true,
    });
    expect(cjs.stderr).toBe('');

    const cli = await run(
      join(project, 'node_modules/.bin/rcml'),
      ['simulate', 'node_modules/rcml-engine/fixtures/scenarios/ivr.json'],
      { cwd: project },
    );
    expect(cli.stdout).toContain('completed');
  });
});
