/**
 * Warnings for what a step leaves unset where the loader has to choose (a default), so nothing
 * the render depends on is decided silently.
 */

import type { Step } from './schema.js';
import { formatPath, type ProjectProblem } from './set-aside.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const missing = (holder: unknown, key: string) => !isObject(holder) || holder[key] == null;

/** Warnings for one step: `raw` is its JSON, `step` the parsed step, `at` its path. */
export function loadWarnings(raw: unknown, step: Step, at: ReadonlyArray<PropertyKey>): ProjectProblem[] {
  const out: ProjectProblem[] = [];
  const warn = (path: PropertyKey[], message: string) => {
    out.push({ path: formatPath([...at, ...path]), message });
  };
  const json = isObject(raw) ? raw : {};
  if ((step.kind === 'gather' || step.kind === 'ussdCollect') && missing(json, 'gatherType')) {
    warn(['gatherType'], 'missing: read as "menu"');
  }
  if (step.kind === 'gather' || step.kind === 'ussdCollect') {
    for (const key of ['collectdigits', 'collectspeech'] as const) {
      const target = json[key];
      if (isObject(target) && missing(target, 'scope')) {
        warn([key, 'scope'], 'missing: the value is stored as "module" scope');
      }
    }
  }
  if (step.kind === 'externalService') {
    const assignments = Array.isArray(json.assignments) ? json.assignments : [];
    assignments.forEach((a, i) => {
      if (missing(a, 'scope')) {
        warn(['assignments', i, 'scope'], 'missing: the value is stored nowhere (as on the platform)');
      }
    });
  }
  return out;
}
