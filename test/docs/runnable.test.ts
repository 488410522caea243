import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Code blocks of the README and docs/ opened with ```ts runnable are complete programs: each is
// type-checked and run to its end, as a user's file would be, against the built package (the
// files sit inside the repository, so `rcml-engine`, `rcml-engine/testing` and
// `rcml-engine/client` resolve to dist/ through the package's own exports). Blocks without the
// marker are excerpts and are not checked.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = join(root, 'test-artifacts/runnable-blocks', String(process.pid));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Block {
  name: string;
  where: string;
  code: string;
}

function runnableBlocks(): Block[] {
  const files = [
    join(root, 'README.md'),
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(root, 'docs', f)),
  ];
  const blocks: Block[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^```ts runnable\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, match.index).split('\n').length;
      const where = `${relative(root, file)}:${line}`;
      blocks.push({ name: where.replace(/[^a-z0-9]+/gi, '-'), where, code: match[1] ?? '' });
    }
  }
  return blocks;
}

const blocks = runnableBlocks();
const run = promisify(execFile);

describe('runnable code blocks of the README and docs', () => {
  it('finds the marked blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it('type-check', async () => {
    expect(existsSync(join(root, 'dist/index.d.ts')), 'dist/ is built (npm ci builds it)').toBe(true);
    mkdirSync(work, { recursive: true });
    for (const block of blocks) writeFileSync(join(work, `${block.name}.ts`), block.code);
    const options = ['--module', 'nodenext', '--target', 'es2022', '--strict', '--noEmit', '--skipLibCheck'];
    const files = blocks.map((b) => join(work, `${b.name}.ts`));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, ...options, '--types', 'node', ...files]).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }),
    );
    expect(checked.stdout).toBe('');
  });

  it.each(blocks.map((b) => [b.where, b] as const))('%s runs to its end', async (_where, block) => {
    mkdirSync(work, { recursive: true });
    const file = join(work, `${block.name}.mts`);
    writeFileSync(file, block.code);
    await run(process.execPath, ['--import', 'tsx', file], { cwd: root });
  });
});
