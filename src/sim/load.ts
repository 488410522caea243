import type { z } from 'zod';
import { type Scenario, scenarioSchema } from './schema.js';

/** A scenario file that cannot be used; `message` names each bad field by JSON path. */
export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ScenarioError';
  }
}

function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/**
 * The issues that name the real bad field. A union (a call is inbound or outbound; an app is
 * a string or a list) reports only "Invalid input" at the entry: use instead the issues of the
 * option the entry was meant to be, i.e. the one that did not fail on the entry's type itself
 * and has the fewest issues. A bad record key reports what is wrong with the key.
 */
function leafIssues(
  issue: Issue,
  base: ReadonlyArray<PropertyKey> = [],
): Array<{ path: string; message: string }> {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const rank = (list: Issue[]): number =>
      list.length + (list.some((i) => i.code === 'invalid_type' && i.path.length === 0) ? 1000 : 0);
    const best = issue.errors.reduce((a, b) => (rank(b) < rank(a) ? b : a));
    return best.flatMap((i) => leafIssues(i, path));
  }
  if (issue.code === 'invalid_key' && issue.issues.length > 0) {
    return issue.issues.map((i) => ({ path: jsonPath(path), message: `key: ${i.message}` }));
  }
  return [{ path: jsonPath(path), message: issue.message }];
}

/** Validates parsed JSON as a scenario; throws `ScenarioError` naming every bad field. */
export function validateScenario(value: unknown): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap((i) => leafIssues(i));
  throw new ScenarioError(
    `invalid scenario:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`,
    issues,
  );
}

/** Parses and validates scenario JSON text; syntax errors give line:column. */
export function parseScenario(text: string, source = 'scenario'): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(message);
    let where = '';
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split('\n').length;
      where = ` at ${line}:${Number(pos[1]) - before.lastIndexOf('\n')}`;
    }
    throw new ScenarioError(`${source}: invalid JSON${where}: ${message}`);
  }
  return validateScenario(value);
}
