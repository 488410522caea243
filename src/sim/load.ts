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

/** Validates parsed JSON as a scenario; throws `ScenarioError` naming every bad field. */
export function validateScenario(value: unknown): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i: z.core.$ZodIssue) => ({
    path: jsonPath(i.path),
    message: i.message,
  }));
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
