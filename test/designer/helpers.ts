import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { type CompileOptions, compileProject } from '../../src/designer/index.js';

const dir = fileURLToPath(new URL('../../fixtures/designer/', import.meta.url));

/** Reads one of the project's own designer fixtures. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8'));
}

/** Compiles a fixture. */
export function app(name: string, options: CompileOptions = {}) {
  return compileProject(fixture(name), options);
}

/** Renders a fixture target and returns its verbs. */
export async function verbs(
  name: string,
  target = '',
  params: Record<string, string> = {},
  options: CompileOptions = {},
) {
  const result = await app(name, options).render(target, params);
  expect(result.error).toBeUndefined();
  return result.document.verbs;
}
