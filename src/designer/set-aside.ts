/**
 * Validates one step leniently: a field the step can render without (an optional field) whose
 * value cannot be used is set aside with a warning instead of rejecting the whole project, so a
 * project the editor saved always loads. Only a value the step cannot render without (a say
 * `phrase`, an external-service `url`) is an error.
 */
import type { z } from 'zod';

/** One problem in a project file, with its JSON path (`nodes[2].steps[0].phrase`). */
export interface ProjectProblem {
  path: string;
  message: string;
}

/** Formats a zod path as `a[0].b`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '$';
}

/** Problems of a zod error, paths prefixed. */
export function problemsOf(error: z.ZodError, prefix: ReadonlyArray<PropertyKey>): ProjectProblem[] {
  return error.issues.map((issue) => ({
    path: formatPath([...prefix, ...issue.path]),
    message:
      issue.code === 'invalid_type' && /received undefined/.test(issue.message) ? 'required' : issue.message,
  }));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Key paths of `raw` (objects only, never through array items) from `path` up to the root. */
function candidates(path: ReadonlyArray<PropertyKey>): PropertyKey[][] {
  const out: PropertyKey[][] = [];
  for (let end = path.length; end > 0; end--) {
    const key = path[end - 1];
    if (typeof key !== 'string') break;
    out.push(path.slice(0, end));
  }
  return out;
}

function holderOf(root: unknown, path: ReadonlyArray<PropertyKey>): Json | undefined {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return isObject(node) ? node : undefined;
}

/** At most this many fields are set aside per step (each costs one more parse). */
const MAX_SET_ASIDE = 16;

/** Result of {@link parseLeniently}. */
export type LenientResult<T> =
  | { ok: true; data: T; warnings: ProjectProblem[] }
  | { ok: false; problems: ProjectProblem[] };

/**
 * Parses `raw` with `schema`. For each issue, the nearest enclosing field (not crossing an array
 * item) whose removal lets the value parse is removed and reported as a warning; issues that
 * no removal fixes are the errors.
 */
export function parseLeniently<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  prefix: ReadonlyArray<PropertyKey>,
): LenientResult<T> {
  const first = schema.safeParse(raw);
  if (first.success) return { ok: true, data: first.data, warnings: [] };
  const working = structuredClone(raw);
  const warnings: ProjectProblem[] = [];
  let result: z.ZodSafeParseResult<T> = first;
  for (let round = 0; round < MAX_SET_ASIDE && !result.success; round++) {
    const issue = result.error.issues[0];
    if (!issue) break;
    let removed = false;
    for (const path of candidates(issue.path)) {
      const holder = holderOf(working, path);
      const key = path[path.length - 1] as string;
      if (!holder || !Object.hasOwn(holder, key)) continue;
      const value = holder[key];
      delete holder[key];
      const retry = schema.safeParse(working);
      const stillAt =
        !retry.success && retry.error.issues.some((i) => formatPath(i.path) === formatPath(path));
      if (stillAt) {
        holder[key] = value;
        continue;
      }
      const problem = problemsOf(result.error, prefix)[0] as ProjectProblem;
      const where = formatPath(issue.path) === formatPath(path) ? '' : ` at ${problem.path}`;
      warnings.push({
        path: formatPath([...prefix, ...path]),
        message: `set aside, not used (${problem.message}${where})`,
      });
      result = retry;
      removed = true;
      break;
    }
    if (!removed) break;
  }
  if (result.success) return { ok: true, data: result.data as T, warnings };
  return { ok: false, problems: problemsOf(result.error, prefix) };
}
