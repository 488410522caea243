import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs must stand on their own: every relative link resolves inside the repository, every
// #anchor names a heading of its target, and nothing cites a document the package does not ship.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}

/** The text outside fenced code blocks and inline code, where links are live. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const body = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of body.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] ?? '')
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function relativeLinks(text: string): string[] {
  const targets: string[] = [];
  for (const match of prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    targets.push(match[1] ?? '');
  }
  for (const match of prose(text).matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) {
    targets.push(match[1] ?? '');
  }
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const target of relativeLinks(text)) {
    const [pathPart = '', anchor] = target.split('#');
    const targetFile = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(targetFile)) {
      broken.push(`${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '' || statSync(targetFile).isDirectory()) continue;
    if (!targetFile.endsWith('.md')) continue;
    if (!anchorsOf(readFileSync(targetFile, 'utf8')).has(decodeURIComponent(anchor))) {
      broken.push(`${target} (no heading #${anchor} in ${relative(root, targetFile)})`);
    }
  }
  return broken;
}

/** Lines naming the platform's SPEC document, which neither the repository nor the package ships. */
function unshippedCitations(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) =>
      /\bSPEC\b/.test(line) ? [`${relative(root, file)}:${index + 1}: ${line}`] : [],
    );
}

describe('docs', () => {
  const files = markdownFiles();

  it.each(files.map((file) => [relative(root, file), file]))('%s: relative links resolve', (_, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it.each(files.map((file) => [relative(root, file), file]))('%s: cites no unshipped SPEC', (_, file) => {
    expect(unshippedCitations(file)).toEqual([]);
  });

  it('the sources cite no unshipped SPEC either (comments, messages)', () => {
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => unshippedCitations(join(root, 'src', name)));
    expect(sources).toEqual([]);
  });

  it('finds anchors as GitHub renders them', () => {
    const anchors = anchorsOf(
      '# Quick start\n## `rcml serve` (HTTP)\n## Notes\n## Notes\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual(['quick-start', 'rcml-serve-http', 'notes', 'notes-1']);
    expect(relativeLinks('see [a](docs/a.md#x) and `[b](b.md)` and [c](https://x.y)')).toEqual([
      'docs/a.md#x',
    ]);
  });
});
